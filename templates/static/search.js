/* Client-side search: one Pagefind bundle per language, queried together; rule numbers and card names jump. */
const box = document.getElementById("search");
const root = box.dataset.root;
const langs = box.dataset.langs.split(" ").filter(Boolean);
const input = document.getElementById("q");
const statusEl = document.getElementById("search-status");
const list = document.getElementById("results");

import { searchFold as fold, ruleNumber } from "./kbtext.js";

let jumps = null;
async function jumpMap() {
  if (!jumps) {
    try { jumps = await (await fetch(root + "jump.json")).json(); } catch (e) { jumps = { numbers: {}, cards: {} }; }
  }
  return jumps;
}

/* The page a query goes straight to: a rule number (`120.2a`, `règle 703.4k`, `CR 120`) or a card name. */
async function jumpTarget(query) {
  const map = await jumpMap();
  const q = fold(query).trim().replace(/\s+/g, " ");
  const num = map.pattern ? ruleNumber(query, map.pattern) : null;
  if (num && own(map.numbers, num)) { return map.numbers[num]; }
  return own(map.cards, q) ? map.cards[q] : null;
}

/* Only the map's own keys: `constructor` or `__proto__` must not reach Object.prototype. */
function own(map, key) {
  return Boolean(map) && Object.prototype.hasOwnProperty.call(map, key) && typeof map[key] === "string";
}

let engines = null;
async function loadEngines() {
  if (!engines) {
    engines = await Promise.all(langs.map(async (lang) => {
      const pf = await import(new URL(`${root}pagefind-${lang}/pagefind.js`, document.baseURI).href);
      await pf.options({ excerptLength: 24 });
      return { lang, pf };
    }));
  }
  return engines;
}

function hrefOf(data, sub) {
  const url = (data.meta && data.meta.url) || "";
  const anchor = sub && sub.url.includes("#") ? sub.url.split("#")[1] : "";
  return root + url + (anchor && anchor !== "main" ? "#" + anchor : "");
}

/* The word range [from, to) of a sub-result's section: from its anchor to the next anchor of the page. */
function section(sub, data) {
  const from = sub && sub.anchor ? sub.anchor.location : 0;
  const next = (data.anchors || []).map((a) => a.location).filter((l) => l > from);
  return [from, next.length ? Math.min(...next) : Infinity];
}

/* A sub-result's relevance (Pagefind lists them in page order, unscored): the summed scores of the words it
   matched, doubled for each pair of matched words side by side (`bibliothèque vide`), per word of its section,
   so that a short rule naming the query beats a long one mentioning it in passing. */
function subScore(sub, data) {
  const [from, to] = section(sub, data);
  const length = Number.isFinite(to) ? to - from : (data.word_count || from + 20) - from;
  const hits = new Set(sub.locations || []);
  const pairs = (sub.locations || []).filter((l) => hits.has(l + 1)).length;
  const sum = (sub.weighted_locations || []).reduce((total, w) => total + (w.balanced_score || w.weight || 0), 0);
  return (sum * (1 + pairs)) / Math.max(20, length);
}

/* The excerpt as DOM nodes, built from the fragment's plain text and the matched word positions, within the
   section. Pagefind's own `excerpt` escapes < and > but not &, so it is not HTML to trust: no innerHTML here. */
function excerptNodes(data, sub, length) {
  const words = (data.content || "").split(/[\r\n\s]+/g);
  const locations = (sub || data).locations || [];
  const [from, to] = section(sub, data);
  const end = Math.min(words.length, to);
  const first = locations.length ? Math.min(...locations) : from;
  const start = Math.max(from, 0, Math.min(first - 6, end - length));
  const hits = new Set(locations);
  const out = document.createDocumentFragment();
  for (let i = start; i < Math.min(end, start + length); i++) {
    out.append(" ");
    if (hits.has(i)) {
      const mark = document.createElement("mark");
      mark.textContent = words[i];
      out.append(mark);
    } else {
      out.append(words[i]);
    }
  }
  return out;
}

function render(groups) {
  list.textContent = "";
  for (const g of groups) {
    const li = document.createElement("li");
    const a = document.createElement("a");
    a.href = g.href;
    a.textContent = g.title;
    li.appendChild(a);
    for (const s of g.snippets) {
      const p = document.createElement("p");
      p.lang = s.lang;
      p.className = "snippet";
      const badge = document.createElement("span");
      badge.className = "badge";
      badge.textContent = s.lang.toUpperCase();
      p.appendChild(badge);
      const span = document.createElement("span");
      span.appendChild(s.excerpt);
      p.appendChild(span);
      li.appendChild(p);
    }
    list.appendChild(li);
  }
}

let serial = 0;
async function runSearch(query) {
  const mine = ++serial;
  const q = fold(query).trim();
  if (!q) { list.textContent = ""; statusEl.textContent = ""; return; }
  const found = [];
  for (const { lang, pf } of await loadEngines()) {
    const res = await pf.search(q);
    const top = await Promise.all(res.results.slice(0, 12).map((r) => r.data().then((d) => [r.score, d])));
    for (const [score, d] of top) {
      const ranked = (d.sub_results || []).map((s, i) => [subScore(s, d), i, s]).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
      const subs = ranked.length ? ranked.slice(0, 3).map((r) => r[2]) : [null];
      subs.forEach((s, i) => found.push({ score: score - i * 0.01, lang, href: hrefOf(d, s),
        title: s && s.title && s.title !== d.meta.title ? `${s.title} — ${d.meta.title}` : d.meta.title,
        excerpt: excerptNodes(d, s, 24) }));
    }
  }
  if (mine !== serial) { return; }
  const groups = new Map();
  found.sort((a, b) => b.score - a.score);
  for (const f of found) {
    if (!groups.has(f.href)) { groups.set(f.href, { href: f.href, title: f.title, snippets: [] }); }
    groups.get(f.href).snippets.push({ lang: f.lang, excerpt: f.excerpt });
  }
  render([...groups.values()].slice(0, 30));
  statusEl.textContent = `${groups.size} résultat(s) · result(s)`;
}

async function submit(query, jump) {
  if (jump) {
    const target = await jumpTarget(query);
    if (target) { location.assign(root + target); return; }
  }
  await runSearch(query);
}

document.getElementById("search-form").addEventListener("submit", (e) => {
  e.preventDefault();
  const url = new URL(location.href);
  url.searchParams.set("q", input.value);
  history.replaceState(null, "", url);
  submit(input.value, true);
});
let timer = null;
input.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => runSearch(input.value), 200); });

const initial = new URLSearchParams(location.search).get("q");
if (initial) { input.value = initial; submit(initial, true); }
