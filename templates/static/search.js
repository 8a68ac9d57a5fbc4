/* Client-side search: one Pagefind bundle per language, queried together; rule numbers and card names jump. */
const box = document.getElementById("search");
const root = box.dataset.root;
const langs = box.dataset.langs.split(" ").filter(Boolean);
const input = document.getElementById("q");
const statusEl = document.getElementById("search-status");
const list = document.getElementById("results");

function fold(text) {
  return text.toLowerCase().replace(/œ/g, "oe").replace(/æ/g, "ae").normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "").replace(/[’‘ʼ'`´]/g, " ");
}

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
  const num = q.replace(/^(cr|regles?|rules?)\s+/, "").replace(/\.$/, "");
  if (/^\d{1,3}(\.\d+[a-z]?)?$/.test(num) && map.numbers[num]) { return map.numbers[num]; }
  return map.cards[q] || null;
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
      span.innerHTML = " " + s.excerpt; /* Pagefind excerpts: our own escaped text with <mark> */
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
      const subs = d.sub_results && d.sub_results.length ? d.sub_results.slice(0, 3) : [null];
      subs.forEach((s, i) => found.push({ score: score - i * 0.01, lang, href: hrefOf(d, s),
        title: s && s.title && s.title !== d.meta.title ? `${s.title} — ${d.meta.title}` : d.meta.title,
        excerpt: (s || d).excerpt }));
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
