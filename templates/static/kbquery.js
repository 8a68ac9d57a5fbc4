/* The search box and its words, in the browser: kb/search/query.py (the query box), kb/search/lookup.py
   (query words -> index terms: as written, by stem prefix, by spelling, as card-name prefixes) and
   kb/search/translate.py (words through the lexicon of printed cards), step by step, over the tables of
   kb/search/static.py. kbsearch.js ranks with what this resolves. */

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

/* The units of a query (kb.search.lookup.units): [tokens, word (a lone word the lexicon may translate, else
   null), as typed]. */
export function units(parsed) {
  const found = [];
  for (const group of parsed.groups) {
    const parts = groupTokens(group);
    const plain = group.length === 1 && !group[0].phrase;
    for (const tokens of parts) {
      const word = plain && tokens[0][0] === "word" ? tokens[0][1] : null;
      const typed = plain && parts.length === 1 ? group[0].text : tokens.map((t) => t[1]).join(" OR ");
      found.push({ tokens, word, typed });
    }
  }
  return found;
}

/* The slots of a query with their translations (kb.search.translate.translate). */
export function translate(parsed, r, langs) {
  const found = units(parsed);
  const spans = [];
  for (const name of Object.keys(r.lexicon()).sort()) {
    const [source, target] = name.split(">");
    if (langs.includes(target)) {
      for (const [a, b, entry] of findSpans(found, r.lexicon()[name], source, r)) {
        spans.push([a, b, source, target, entry]);
      }
    }
  }
  const stops = queryStops(r, langs);
  const slots = [];
  let k = 0;
  while (k < found.length) {
    const mine = spans.filter((s) => s[0] === k);
    if (!mine.length) {
      slots.push(weigh(unitSlot(found[k], r, langs, stops, true), r, langs));
      k++;
      continue;
    }
    const end = Math.max(...mine.map((s) => s[1]));
    const slot = end - k === 1 ? unitSlot(found[k], r, langs, stops, false) : phraseSlot(found.slice(k, end), r, langs);
    const typed = found.slice(k, end).map((u) => u.typed).join(" ");
    for (const [, , source, target, entry] of mine) {
      if (addTranslation(slot, entry, r, target)) {
        slot.translated.push([source, target, typed, entry[0].length ? [...entry[0]] : entry[1].slice(0, 1)]);
      }
    }
    slots.push(weigh(slot, r, langs));
    k = end;
  }
  return finish(slots, r, langs);
}

function findSpans(found, table, source, r) {
  const keys = table.keys;
  const spans = [];
  let k = 0;
  while (k < found.length) {
    if (found[k].word === null) { k++; continue; }
    let end = k;
    while (end < found.length && end - k < table.longest && found[end].word !== null) { end++; }
    let done = false;
    for (let size = end - k; size > 0; size--) {
      const key = found.slice(k, k + size).map((u) => u.word).join(" ");
      if (Object.prototype.hasOwnProperty.call(keys, key)) {
        spans.push([k, k + size, keys[key]]);
        k += size;
        done = true;
        break;
      }
    }
    if (!done) {
      const entry = byTerm(found[k].word, source, table.terms, r);
      if (entry) { spans.push([k, k + 1, entry]); }
      k++;
    }
  }
  return spans;
}

function byTerm(word, source, terms, r) {
  if (!terms || !Object.keys(terms).length || !r.langs.includes(source) || isStop(word, "word", r.stops[source])) {
    return null;
  }
  let term = r.word(source, word);
  term = term ? term[0] : null;
  if (term === null && isAlpha(word) && [...word].length <= r.c.MAX_WORD) { term = stemPrefix(word, source, r); }
  return term !== null && Object.prototype.hasOwnProperty.call(terms, String(term)) ? terms[String(term)] : null;
}

function addTranslation(slot, entry, r, lang) {
  const found = slot.via[lang] = slot.via[lang] || [];
  const before = found.length;
  for (const target of [...entry[0], ...entry[1]]) {
    const words = queryTokens(target).map((t) => t[1]);
    let terms = words.map((w) => { const f = r.word(lang, w); return f ? f[0] : null; });
    let factor = 1.0;
    if (words.length === 1 && terms[0] === null && isAlpha(words[0]) && [...words[0]].length <= r.c.MAX_WORD) {
      terms = [stemPrefix(words[0], lang, r)];
      factor = r.c.STEM_FACTOR;
    }
    const same = (a, b) => a.length === b.length && a.every((t, i) => t === b[i]);
    if (terms.length && !terms.includes(null) && found.every(([t]) => !same(t, terms))) { found.push([terms, factor]); }
  }
  if (!found.length) { delete slot.via[lang]; }
  return found.length > before;
}

function queryStops(r, langs) {
  const stops = new Set();
  for (const lang of langs) { for (const w of r.stops[lang]) { stops.add(w); } }
  return stops;
}

/* The slots of a query without translation (kb.search.lookup.resolve). */
export function resolve(parsed, r, langs) {
  const stops = queryStops(r, langs);
  return finish(units(parsed).map((u) => weigh(unitSlot(u, r, langs, stops, true), r, langs)), r, langs);
}

function finish(all, r, langs) {
  const slots = all.filter((s) => s !== null);
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
    const via = slot.via[lang] || [];
    const translated = via.filter(([terms, f]) => terms.length === 1 && f === 1.0).map(([terms]) => terms[0]);
    if (!exact.length && translated.length === 1) {
      const known = new Set(via.filter(([terms]) => terms.length === 1).map(([terms]) => terms[0]));
      for (const [t, w] of r.concept(lang, translated[0])) {
        if (!known.has(t)) { via.push([[t], r.c.CONCEPT_FACTOR * w]); }
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

function unitSlot(unit, r, langs, stops, fuzzy) {
  const stop = unit.tokens.every(([kind, w, phrase]) => !phrase && isStop(w, kind, stops));
  const slot = newSlot(unit.tokens.map((t) => t[1]).join(" OR "), stop);
  for (const [kind, text, phrase] of unit.tokens) {
    if (phrase) { addPhrase(slot, text, r, langs); } else { addWord(slot, kind, text, r, langs, fuzzy); }
  }
  return slot;
}

function phraseSlot(found, r, langs) {
  const words = found.map((u) => u.word).join(" ");
  const slot = newSlot(words, false);
  addPhrase(slot, words, r, langs);
  return slot;
}

function weigh(slot, r, langs) {
  const weights = [];
  for (const lang of langs) {
    for (const [t, f] of slot.words[lang] || []) { weights.push(r.idf(lang, t) * f); }
  }
  for (const lang of langs) {
    for (const terms of slot.phrases[lang] || []) { weights.push(terms.reduce((sum, t) => sum + r.idf(lang, t), 0)); }
    for (const [terms, f] of slot.via[lang] || []) {
      weights.push(terms.reduce((sum, t) => sum + r.idf(lang, t), 0) * f);
    }
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
  return { text, stop, words: {}, phrases: {}, names: {}, weight: 0, nameIdf: 0, fixed: null, via: {}, translated: [] };
}

function addPhrase(slot, text, r, langs) {
  const words = text.split(" ");
  for (const lang of langs) {
    const terms = words.map((w) => { const found = r.word(lang, w); return found ? found[0] : null; });
    if (!terms.includes(null)) { (slot.phrases[lang] = slot.phrases[lang] || []).push(terms); }
  }
}

function addWord(slot, kind, word, r, langs, fuzzy) {
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
  if (!stemmed && !Object.keys(slot.names).length && fuzzy) { correct(slot, word, r, langs); }
}

function stemPrefix(word, lang, r) {
  for (let k = word.length - 1; k >= Math.max(5, word.length - 3); k--) {
    const t = r.form(lang, word.slice(0, k));
    if (t !== null) { return t; }
  }
  return null;
}

function correct(slot, word, r, langs) {
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
