/* The search box and its words, in the browser: kb/search/query.py (the query box) and kb/search/lookup.py
   (query words -> index terms: as written, by stem prefix, by spelling, as card-name prefixes), step by step,
   over the tables of kb/search/static.py. kbsearch.js ranks with what this resolves. */

import { fold, ruleNumber } from "./kbtext.js";
const W = String.raw`[\p{L}\p{N}_]`;
const SYMBOL = String.raw`\{[^{}\s]{1,8}\}`;
const STAT = String.raw`[+\-−]?(?:\p{Nd}+|[xX*])/[+\-−]?(?:\p{Nd}+|[xX*])`;
const WORDS = String.raw`${W}+(?:\.${W}+)*(?:['’]t(?!${W}))?`;
/* kb.search.text.TOKEN: a symbol, power/toughness or a counter, or a word. */
const TOKEN = new RegExp(String.raw`(${SYMBOL})|((?<![\p{L}\p{N}_/])${STAT}(?![\p{L}\p{N}_/]))|(${WORDS})`, "gu");
const STATS = new RegExp(`^${STAT}$`, "u");
export const KINDS = ["rule", "glossary", "card", "ruling", "note"];
const FILTERS = ["lang", "kind", "edition"];
const CONTROL = /[\x00-\x1f\x7f-\x9f]/g;
const QUERY_TOKEN = /(-?)(?:"([^"]*)"|([^\s"]+))/g;

export class SearchError extends Error {}

/* (kind, folded text) of the tokens of a query: folded first, then split (kb.search.text.query_tokens). */
export function queryTokens(text) {
  const kinds = ["symbol", "stats", "word"];
  return [...fold(text).replace(/−/g, "-").matchAll(TOKEN)].map((m) => [kinds[m[1] ? 0 : m[2] ? 1 : 2], m[0]]);
}

function isStop(word, kind, stops) {
  return kind === "word" && ([...word].length < 2 || stops.has(word));
}

/* The query box parsed (kb.search.query.parse_query); throws SearchError. `pattern`: typed rule numbers. */
export function parseQuery(text, pattern) {
  text = String(text).replace(CONTROL, " ");
  if ((text.match(/"/g) || []).length % 2) {
    throw new SearchError('unbalanced quote in query; close the phrase with " or remove the quote');
  }
  const filters = { lang: [], kind: [], edition: [] };
  const groups = [];
  const excluded = [];
  let pendingOr = false;
  for (const m of text.matchAll(QUERY_TOKEN)) {
    let neg = m[1];
    const phrase = m[2];
    let word = m[3];
    if (word && word.includes(":") && FILTERS.includes(word.split(":")[0].toLowerCase()) && !neg) {
      addFilter(word, filters);
      continue;
    }
    if (word === "OR" && !neg) {
      if (!groups.length || pendingOr) { throw new SearchError("OR needs a word on each side (a OR b)"); }
      pendingOr = true;
      continue;
    }
    if (neg && word && STATS.test("-" + word)) { neg = ""; word = "-" + word; }
    const item = phrase || !word ? { text: phrase || "", phrase: true } : { text: word, phrase: false };
    if (!item.text.trim()) { continue; }
    if (neg) {
      excluded.push(item);
    } else if (pendingOr) {
      groups[groups.length - 1].push(item);
      pendingOr = false;
    } else {
      groups.push([item]);
    }
  }
  if (pendingOr) { throw new SearchError("OR needs a word on each side (a OR b)"); }
  if (!groups.length) {
    const what = excluded.length ? "only excluded words" : "nothing to search for";
    throw new SearchError(`${what}; type words, a phrase in quotes or a rule number`);
  }
  const box = groups.map((g) => g.map((i) => i.text).join(" ")).join(" ");
  const plain = groups.every((g) => g.length === 1 && !g[0].phrase) && !excluded.length;
  const number = plain && pattern ? ruleNumber(box, pattern) : null;
  return { number, groups, excluded, langs: filters.lang, kinds: filters.kind, editions: filters.edition };
}

const LETTERS = "abcdefghijkmnpqrstuvwxyz";

/* Rule order (kb.model.numbers.sort_key): section 1 < rule 100 < 100.1 < 100.1a < 100.2 < 101. */
export function sortKey(number) {
  const m = /^(\d+)(?:\.(\d+)([a-z]?))?$/.exec(number);
  if (!m) { return [0, 0, 0]; }
  const head = Number(m[1]);
  if (m[1].length === 1) { return [head * 100, -2, -1]; }
  if (m[2] === undefined) { return [head, -1, -1]; }
  return [head, Number(m[2]), m[3] ? LETTERS.indexOf(m[3]) : -1];
}

export function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) { if (a[i] !== b[i]) { return a[i] - b[i]; } }
  return 0;
}

/* Whether `number` is `ancestor` or lies under it (kb.model.numbers.descends). */
export function descends(number, ancestor) {
  if (number === ancestor) { return true; }
  if (ancestor.length === 1) { return number.length >= 3 && number[0] === ancestor && /^\d{3}/.test(number); }
  if (!ancestor.includes(".")) { return number.split(".")[0] === ancestor; }
  return number.startsWith(ancestor) && /^[a-z]+$/.test(number.slice(ancestor.length));
}

function addFilter(word, filters) {
  const at = word.indexOf(":");
  const name = word.slice(0, at).toLowerCase();
  for (let value of word.slice(at + 1).split(",")) {
    value = name === "edition" ? value : value.toLowerCase();
    if (name === "kind" && !KINDS.includes(value)) {
      throw new SearchError(`unknown kind '${value}'; use kind:${KINDS.join("|")}`);
    }
    filters[name].push(value);
  }
}

/* --- word lookup (kb.search.lookup) --------------------------------------------------------------------- */

export function osaWithinOne(a, b) {
  if (a === b) { return true; }
  const la = a.length;
  const lb = b.length;
  if (Math.abs(la - lb) > 1) { return false; }
  let i = 0;
  while (i < Math.min(la, lb) && a[i] === b[i]) { i++; }
  if (la === lb) {
    if (a.slice(i + 1) === b.slice(i + 1)) { return true; }
    return i + 1 < la && a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2);
  }
  return la > lb ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

export function isAlpha(word) { return /^\p{L}+$/u.test(word); }

export function resolve(parsed, r, langs) {
  const stops = new Set();
  for (const lang of langs) { for (const w of r.stops[lang]) { stops.add(w); } }
  const slots = [];
  for (const group of parsed.groups) {
    for (const tokens of groupTokens(group)) {
      const slot = makeSlot(tokens, r, langs, stops);
      if (slot) { slots.push(slot); }
    }
  }
  let kept = slots.filter((s) => !s.stop).slice(0, r.c.MAX_SLOTS);
  if (!kept.length) {
    kept = slots.slice(0, r.c.MAX_SLOTS).map((s) => nameWords(s, r, langs));
    return kept.every((s) => s.weight > 0) ? kept : [];
  }
  if (kept.length >= 2) {
    for (const slot of kept) { addConcepts(slot, r, langs); }
  }
  return kept;
}

function nameWords(slot, r, langs) {
  const named = newSlot(slot.text, true);
  const docs = new Set();
  for (const lang of langs) {
    const exact = r.names(lang, slot.text, r.c.NAME_LIMIT).filter(([name]) => name === slot.text);
    const found = [...new Set(exact.map(([, d]) => d))].sort((a, b) => a - b);
    if (found.length) {
      named.names[lang] = found.map((d) => [d, 1.0]);
      for (const d of found) { docs.add(d); }
    }
  }
  if (docs.size) {
    const n = Math.max(...langs.map((lang) => r.nDocs[lang]));
    named.weight = named.nameIdf = Math.log(1 + (n - docs.size + 0.5) / (docs.size + 0.5));
  }
  return named;
}

function addConcepts(slot, r, langs) {
  for (const lang of langs) {
    const alts = slot.words[lang] || [];
    const exact = alts.filter((a) => a[1] === 1.0).map((a) => a[0]);
    if (exact.length === 1) {
      const known = new Set(alts.map((a) => a[0]));
      for (const [t, w] of r.concept(lang, exact[0])) {
        if (!known.has(t)) { alts.push([t, r.c.CONCEPT_FACTOR * w, -1]); }
      }
    }
  }
}

function groupTokens(group) {
  if (group.length === 1 && !group[0].phrase) {
    return queryTokens(group[0].text).map(([kind, w]) => [[kind, w, false]]);
  }
  const found = [];
  for (const item of group) {
    const toks = queryTokens(item.text);
    if (item.phrase && toks.length > 1) {
      found.push(["phrase", toks.map((t) => t[1]).join(" "), true]);
    } else {
      for (const [kind, w] of toks) { found.push([kind, w, false]); }
    }
  }
  return found.length ? [found] : [];
}

function makeSlot(tokens, r, langs, stops) {
  const stop = tokens.every(([kind, w, phrase]) => !phrase && isStop(w, kind, stops));
  const slot = newSlot(tokens.map((t) => t[1]).join(" OR "), stop);
  for (const [kind, text, phrase] of tokens) {
    if (phrase) { addPhrase(slot, text, r, langs); } else { addWord(slot, kind, text, r, langs); }
  }
  const weights = [];
  for (const lang of langs) {
    for (const [t, f] of slot.words[lang] || []) { weights.push(r.idf(lang, t) * f); }
  }
  for (const lang of langs) {
    for (const terms of slot.phrases[lang] || []) { weights.push(terms.reduce((sum, t) => sum + r.idf(lang, t), 0)); }
  }
  const matched = new Set();
  for (const lang of langs) { for (const [d] of slot.names[lang] || []) { matched.add(d); } }
  if (matched.size) {
    const n = Math.max(...langs.map((lang) => r.nDocs[lang]));
    slot.nameIdf = Math.log(1 + (n - matched.size + 0.5) / (matched.size + 0.5));
    weights.push(slot.nameIdf);
  }
  slot.weight = weights.length ? Math.max(...weights) : 0;
  return slot.weight > 0 ? slot : null;
}

/* A slot (kb.search.lookup.Slot): alternatives per language, weight, spelling correction. */
function newSlot(text, stop) {
  return { text, stop, words: {}, phrases: {}, names: {}, weight: 0, nameIdf: 0, fixed: null };
}

function addPhrase(slot, text, r, langs) {
  const words = text.split(" ");
  for (const lang of langs) {
    const terms = words.map((w) => { const found = r.word(lang, w); return found ? found[0] : null; });
    if (!terms.includes(null)) { (slot.phrases[lang] = slot.phrases[lang] || []).push(terms); }
  }
}

function addWord(slot, kind, word, r, langs) {
  const known = {};
  for (const lang of langs) { const t = r.word(lang, word); if (t) { known[lang] = t; } }
  const size = [...word].length;
  if (kind === "word" && size >= r.c.NAME_MIN && !Object.keys(known).length) {
    for (const lang of langs) {
      const best = new Map();
      for (const [name, doc] of r.names(lang, word, r.c.NAME_LIMIT)) {
        best.set(doc, Math.max(best.get(doc) || 0, size / [...name].length));
      }
      if (best.size) {
        const list = slot.names[lang] = slot.names[lang] || [];
        for (const d of [...best.keys()].sort((a, b) => a - b)) { list.push([d, best.get(d)]); }
      }
    }
  }
  if (Object.keys(known).length) {
    for (const lang of langs) {
      if (known[lang]) { (slot.words[lang] = slot.words[lang] || []).push([known[lang][0], 1.0, known[lang][1]]); }
    }
    return;
  }
  if (kind !== "word" || !isAlpha(word) || size > r.c.MAX_WORD) { return; }
  let stemmed = false;
  for (const lang of langs) {
    const t = stemPrefix(word, lang, r);
    if (t !== null) {
      (slot.words[lang] = slot.words[lang] || []).push([t, r.c.STEM_FACTOR, -1]);
      stemmed = true;
    }
  }
  if (!stemmed && !Object.keys(slot.names).length) { fuzzy(slot, word, r, langs); }
}

function stemPrefix(word, lang, r) {
  for (let k = word.length - 1; k >= Math.max(5, word.length - 3); k--) {
    const t = r.form(lang, word.slice(0, k));
    if (t !== null) { return t; }
  }
  return null;
}

function fuzzy(slot, word, r, langs) {
  if ([...word].length < r.c.FUZZY_MIN) { return; }
  const found = new Map();
  for (const [lang, cand, term, df, bit] of r.near(word)) {
    if (langs.includes(lang) && osaWithinOne(word, cand)) {
      if (!found.has(cand)) { found.set(cand, {}); }
      found.get(cand)[lang] = [term, df, bit];
    }
  }
  const total = (c) => Object.values(found.get(c)).reduce((sum, x) => sum + x[1], 0);
  const ranked = [...found.keys()].sort((a, b) => total(b) - total(a) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, r.c.FUZZY_MAX);
  for (const cand of ranked) {
    for (const lang of langs) {
      const x = found.get(cand)[lang];
      if (x) { (slot.words[lang] = slot.words[lang] || []).push([x[0], r.c.FUZZY_FACTOR, x[2]]); }
    }
  }
  if (ranked.length) { slot.fixed = ranked[0]; }
}
