/* The search page: rule numbers, card names and the start of one card's name jump to their page; anything else is
   ranked by kbsearch.js over the site's export of kb's Whoosh index (the same results as `kb search`). Each result
   shows the reader's language, the other one a click away. */
import "./kbtext.js";

const { searchFold: fold, jumpNumbers, ruleNumber } = globalThis.kbText;
import { fnv1a, Index, SearchError } from "./kbsearch.js";

const box = document.getElementById("search");
const root = box.dataset.root;
const assets = box.dataset.assets || root; /* the site root: index and jump map, shared by the interface trees */
const ui = document.body.dataset.ui || document.documentElement.lang || "en";
const input = document.getElementById("q");
const statusEl = document.getElementById("search-status");
const list = document.getElementById("results");
const examples = document.getElementById("search-examples");
const kindInputs = [...document.querySelectorAll('#kinds input[name="kind"]')];
const LIMIT = 30;
/* The page's words in its interface language (search.html: `search-words`, from kb/site/labels.py). */
const words = JSON.parse(document.getElementById("search-words").textContent);
const fill = (text, values) => text.replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
const LANG_NAMES = { fr: { fr: "français", en: "anglais" }, en: { fr: "French", en: "English" } };
const say = {
  results: (n) => fill(n > 1 ? words.results : words.result, { n }),
  none: words.none, mean: words.mean, broken: words.broken, via: words.via, viaTitle: words.via_title,
  viaRules: words.via_rules, viaRulesTitle: words.via_rules_title,
  other: (lang) => fill(words.other, { lang: (LANG_NAMES[ui] || LANG_NAMES.en)[lang] || lang.toUpperCase() }),
  error: (err) => (words[err.code] ? fill(words[err.code], err.values || {}) : err.message),
};

/* The language the reader reads: the column they chose to show, else the interface's. */
function readerLang() {
  const shown = document.documentElement.getAttribute("data-show");
  return shown && shown !== "both" ? shown : ui;
}

let jumps = null;
async function jumpMap() {
  if (!jumps) {
    try { jumps = await (await fetch(assets + "jump.json")).json(); jumps.numbers = jumpNumbers(jumps.numbers); }
    catch (e) { jumps = { numbers: {}, cards: 0 }; }
  }
  return jumps;
}

/* The page a query goes straight to: a rule number (`120.2a`, `règle 703.4k`, `CR 120`) or a card name (read in
   the one shard of card names that holds it: jump-cards-<k>.json). */
async function jumpTarget(query) {
  const map = await jumpMap();
  const q = fold(query).trim().replace(/\s+/g, " ");
  const num = map.pattern ? ruleNumber(query, map.pattern) : null;
  const twice = num && Object.values(map.own || {}).some((mine) => Object.prototype.hasOwnProperty.call(mine, num));
  if (twice) { return null; } /* a translation numbers another rule so: both readings listed, as kb search does */
  if (num && own(map.numbers, num)) { return map.numbers[num]; }
  if (!map.cards || !q) { return null; }
  try {
    const cards = await (await fetch(`${assets}jump-cards-${fnv1a(q) % map.cards}.json`)).json();
    return own(cards, q) ? cards[q] : null;
  } catch (e) { return null; }
}

/* Only the map's own keys: `constructor` or `__proto__` must not reach Object.prototype. */
function own(map, key) {
  return Boolean(map) && Object.prototype.hasOwnProperty.call(map, key) && typeof map[key] === "string";
}

let index = null;
function openIndex() {
  if (!index) {
    const load = async (name) => {
      const res = await fetch(assets + "search/" + name);
      if (!res.ok) { throw new Error(`${name}: HTTP ${res.status}`); }
      return res.json();
    };
    index = Index.open(load);
    index.catch(() => { index = null; }); /* tried again by the next search */
  }
  return index;
}

/* How the pages draw each symbol (`{2}{U}`, `{T}`), in this interface's words: written by kb with the index. */
let symbols = null;
async function symbolTable() {
  if (!symbols) {
    symbols = fetch(assets + "search/symbols.json").then((r) => r.json()).then((t) => t[ui] || {}).catch(() => ({}));
  }
  return symbols;
}

/* Text with its symbols drawn as the pages draw them. */
function drawn(text, table) {
  const out = document.createDocumentFragment();
  let pos = 0;
  for (const m of text.matchAll(/\{[^{}\s]{1,8}\}/g)) {
    if (!own(table, m[0])) { continue; }
    const html = document.createElement("template");
    html.innerHTML = table[m[0]]; /* kb's own drawing of the symbol, never the content's text */
    out.append(text.slice(pos, m.index), html.content);
    pos = m.index + m[0].length;
  }
  out.append(text.slice(pos));
  return out;
}

function snippetNode(lang, parts, table) {
  const p = document.createElement("p");
  p.lang = lang;
  p.className = "snippet";
  const badge = document.createElement("span");
  badge.className = "badge";
  badge.textContent = lang.toUpperCase();
  p.append(badge, " ");
  for (const part of parts) {
    if (part.mark) {
      const mark = document.createElement("mark");
      mark.append(drawn(part.text, table));
      p.append(mark);
    } else {
      p.append(drawn(part.text, table));
    }
  }
  return p;
}

/* A result's title, in the interface's language when it has one (a card's name, a rule's heading), and its
   language ("": unknown). */
function titleOf(r) {
  const map = (r.kind === "card" || r.kind === "ruling" ? r.names : r.titles) || {};
  const lang = map[ui] ? ui : r.langs.find((l) => map[l]);
  return lang ? [map[lang], lang] : [r.title, r.titleLang];
}

/* The label of a result found only through the lexicon: the words typed and what they were taken for. */
function viaNode(translated) {
  const p = document.createElement("p");
  p.className = "via";
  p.lang = ui;
  const colon = ui === "fr" ? "\u00a0: " : ": ";
  const parts = [];
  const titles = [];
  for (const [label, title, same] of [[say.viaRules, say.viaRulesTitle, true], [say.via, say.viaTitle, false]]) {
    /* a paraphrase (players' words -> the rules' wording) names its source language twice (kb search's `through`) */
    const pairs = translated.filter(([a, b]) => (a === b) === same).map(([, , typed, targets]) => `${typed} → ${targets.join(" / ")}`);
    if (pairs.length) { parts.push(`${label}${colon}${pairs.join(", ")}`); titles.push(title); }
  }
  p.title = titles.join(" ");
  p.textContent = parts.join(ui === "fr" ? " ; " : "; ");
  return p;
}

/* A result's address, with the words its snippets mark (`?found=`: site.js marks them on the page it opens). */
function foundIn(r) {
  const marked = new Set();
  for (const parts of Object.values(r.snippets)) {
    for (const part of parts) { if (part.mark && part.text.trim()) { marked.add(part.text.trim()); } }
  }
  if (!marked.size) { return r.url; }
  const [path, anchor] = r.url.split("#");
  const query = [...marked].slice(0, 20).map((w) => "found=" + encodeURIComponent(w)).join("&");
  return `${path}?${query}${anchor === undefined ? "" : "#" + anchor}`;
}

function resultNode(r, table) {
  const li = document.createElement("li");
  li.dataset.kind = r.kind;
  li.dataset.id = r.id;
  const a = document.createElement("a");
  a.href = root + foundIn(r);
  const [title, lang] = titleOf(r);
  /* the interface's unofficial name, first: the concept's, else its heading's (an untitled rule's) */
  const name = lang !== ui ? (r.named && r.named[ui]) || (r.heading_named && r.heading_named[ui]) || null : null;
  const head = r.kind === "rule" ? `${r.number} ` : "";
  /* an untitled rule named for the concept it defines (302.6, Summoning Sickness Rule): its title is its section's,
     no translation of that name, so the section is shown in the interface's words too */
  const section = r.named && r.named[ui] && r.heading_named && r.heading_named[ui];
  if (name) { /* `121 Piocher une carte* · Drawing a Card`: the title tagged with its own language */
    a.textContent = `${head}${name}* · `;
    a.title = words.lex_mark || "";
    const original = document.createElement("span");
    if (section) { original.lang = ui; original.textContent = `${section}*`; } else {
      if (lang) { original.lang = lang; }
      original.textContent = title;
    }
    a.appendChild(original);
  } else {
    a.textContent = r.kind === "rule" ? `${r.number}${title ? " " + title : ""}` : title || r.id;
    if (lang && lang !== ui) { a.lang = lang; }
  }
  li.appendChild(a);
  if (words[`kind_${r.kind}`]) { /* what the result is, beside its title: a card, a ruling, a glossary entry */
    const kind = document.createElement("span");
    kind.className = "kind";
    kind.textContent = words[`kind_${r.kind}`];
    li.append(" ", kind);
  }
  if (r.translated && r.translated.length) { li.appendChild(viaNode(r.translated)); }
  const langs = r.langs.filter((lang) => r.snippets[lang]);
  const first = langs.includes(readerLang()) ? readerLang() : langs[0];
  if (first) { li.appendChild(snippetNode(first, r.snippets[first], table)); }
  for (const lang of langs.filter((l) => l !== first)) {
    const details = document.createElement("details");
    details.className = "other-lang";
    details.lang = ui;
    const summary = document.createElement("summary");
    summary.textContent = say.other(lang);
    details.append(summary, snippetNode(lang, r.snippets[lang], table));
    li.appendChild(details);
  }
  return li;
}

function showStatus(text, corrected) {
  statusEl.textContent = text;
  if (corrected) {
    const a = document.createElement("a");
    a.href = "?q=" + encodeURIComponent(corrected);
    a.textContent = corrected;
    a.addEventListener("click", (e) => { e.preventDefault(); input.value = corrected; go(corrected, false); });
    statusEl.append(` · ${say.mean} `, a, " ?");
  }
}

/* The kind of result asked for (the filter's buttons), or null for every kind. */
function chosenKind() {
  const on = kindInputs.find((x) => x.checked);
  return on && on.value ? on.value : null;
}

function chooseKind(kind) {
  for (const x of kindInputs) { x.checked = x.value === (kind || ""); }
}

let serial = 0;
/* Ask the index; while typing (`typing`), the last word may be unfinished: it is read as the start of a word. */
async function runSearch(query, typing = false, limit = LIMIT) {
  const mine = ++serial;
  if (examples) { examples.hidden = Boolean(query.trim()); } /* the empty page suggests queries */
  if (!query.trim()) { list.textContent = ""; statusEl.textContent = ""; return null; }
  let found;
  try {
    found = await (await openIndex()).search(query, limit, typing, chosenKind());
  } catch (err) {
    if (mine !== serial) { return; }
    list.textContent = "";
    list.dataset.query = query;
    showStatus(err instanceof SearchError ? say.error(err) : `${say.broken} (${err.message})`, null);
    return null;
  }
  if (mine !== serial) { return null; }
  const shown = found.results.filter((x) => x.url);
  const table = shown.some((r) => Object.values(r.snippets).some((p) => p.some((x) => x.text.includes("{")))) ? await symbolTable() : {};
  if (mine !== serial) { return null; }
  list.textContent = "";
  list.dataset.query = query; /* which question the list answers (tests and benchmarks wait on it) */
  for (const r of shown) { list.appendChild(resultNode(r, table)); }
  const n = found.results.length;
  const last = (query.match(/[^\s"]+$/) || [""])[0];
  if (typing && !n && [...last].length < (await openIndex()).c.STEM_MIN) { showStatus("", null); return found; } /* a word begun */
  showStatus(n >= limit ? fill(words.first, { n, total: found.total }) : n ? say.results(n) : say.none, found.corrected);
  if (n >= limit) { /* a page of results, not all: the next ones on request */
    const more = document.createElement("button");
    more.type = "button";
    more.className = "more";
    more.textContent = words.more;
    more.addEventListener("click", () => runSearch(query, typing, limit + LIMIT));
    const li = document.createElement("li");
    li.className = "more";
    li.appendChild(more);
    list.appendChild(li);
  }
  return found;
}

/* The one card a query begins the name of (`isperia`: Isperia the Inscrutable), when the results hold no rule or
   glossary entry and one card alone has a name, in either language, starting so; else null. */
function onlyCard(query, results) {
  const q = fold(query).trim().replace(/\s+/g, " ");
  if ([...q].length < 3 || results.some((r) => r.kind === "rule" || r.kind === "glossary")) { return null; }
  const starts = (r) => Object.values(r.names || {}).some((name) => fold(name).startsWith(q));
  const cards = results.filter((r) => r.kind === "card" && r.url && starts(r));
  return cards.length === 1 ? cards[0] : null;
}

/* The address says the question asked and the kind filtered (to share it or come back to it). A question asked
   (Enter, an example, a correction) is an entry of its own in the history; typing and filtering change the current
   one. */
function remember(query, entry = false) {
  const url = new URL(location.href);
  if (query.trim()) { url.searchParams.set("q", query); } else { url.searchParams.delete("q"); }
  const kind = chosenKind();
  if (kind) { url.searchParams.set("kind", kind); } else { url.searchParams.delete("kind"); }
  if (url.href === location.href) { return; }
  if (entry) { history.pushState({ scroll: 0 }, "", url); } else { history.replaceState({ scroll: 0 }, "", url); }
}

/* Where the reader was on the list: kept in the history entry when a result is opened or the page left. */
function keepScroll() {
  history.replaceState({ ...(history.state || {}), scroll: window.scrollY }, "", location.href);
}

async function restore(scroll) {
  const params = new URLSearchParams(location.search);
  input.value = params.get("q") || "";
  chooseKind(params.get("kind"));
  await runSearch(input.value);
  if (scroll) { window.scrollTo(0, scroll); }
}

async function go(query, jump) {
  remember(query, true);
  if (jump) {
    const target = await jumpTarget(query);
    if (target) { location.assign(root + target); return; }
  }
  const found = await runSearch(query);
  const whole = found && found.results.length === found.total; /* every result read: no other card beyond */
  const card = jump && whole && !chosenKind() ? onlyCard(query, found.results) : null;
  if (card && input.value === query) { location.assign(root + card.url); } /* still the question asked */
}

let timer = null;
document.getElementById("search-form").addEventListener("submit", (e) => {
  e.preventDefault();
  clearTimeout(timer); /* the question as asked, not as it was being typed */
  go(input.value, true);
});
let typed = ""; /* the words typed whole, their files fetched as the reader goes on typing */
input.addEventListener("input", () => {
  const whole = input.value.slice(0, input.value.search(/\S*$/)).trim();
  if (whole && whole !== typed) { typed = whole; openIndex().then((index) => index.prefetch(whole)).catch(() => {}); }
  clearTimeout(timer);
  timer = setTimeout(() => { remember(input.value); runSearch(input.value, true); }, 200); /* results as one types */
});
for (const x of kindInputs) {
  x.addEventListener("change", () => { clearTimeout(timer); remember(input.value); runSearch(input.value); });
}
list.addEventListener("click", (e) => { if (e.target.closest("a")) { keepScroll(); } });
window.addEventListener("pagehide", keepScroll);
window.addEventListener("popstate", (e) => { clearTimeout(timer); restore(e.state && e.state.scroll); });

/* The index and the symbols read while the reader types: the first search waits for neither. */
openIndex().catch(() => {}); /* a failure is the search's to show */
symbolTable();

/* Opened with a question: asked (a rule number or card name jumps to its page); come back to (Back, Forward,
   reload), its results shown again where the reader left them, never jumped from again. */
const initial = new URLSearchParams(location.search).get("q");
const arrival = (performance.getEntriesByType("navigation")[0] || {}).type;
chooseKind(new URLSearchParams(location.search).get("kind"));
if (initial && (arrival === "back_forward" || arrival === "reload")) { restore(history.state && history.state.scroll); }
else if (initial) { input.value = initial; go(initial, true); }
