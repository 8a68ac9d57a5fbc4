/* Search in the browser: the ranking and results of kb/search (rank.py, results.py), step by step, over the JSON
   files kb/search/static.py writes; the query box and its words are kbquery.js. The CLI and the site thus give
   the same results; tests/test_search.py runs both on the same questions. Ranking constants come from the
   index (core.json), never copied by hand. */

import { KINDS, SearchError, compareKeys, descends, isAlpha, osaWithinOne, parseQuery, queryTokens, sortKey, translate }
  from "./kbquery.js";

export { SearchError };

/* --- ranking (kb.search.rank) ----------------------------------------------------------------------------- */

function indexOf(p, d) {
  let lo = 0;
  let hi = p.docs.length;
  while (lo < hi) { const mid = (lo + hi) >> 1; if (p.docs[mid] < d) { lo = mid + 1; } else { hi = mid; } }
  return lo < p.docs.length && p.docs[lo] === d ? lo : -1;
}

/* kb.search.rank.allowed_hits: document -> [score, term, index, coverage credit, through a translation]. */
function allowedHits(slot, lang, r, allowed) {
  const c = r.c;
  const found = new Map();
  const near = new Map();
  const words = (slot.words[lang] || []).map(([t, f, bit]) => [t, f, bit, false]);
  for (const [terms, f] of slot.via[lang] || []) { if (terms.length === 1) { words.push([terms[0], f, -1, true]); } }
  for (const [term, factor, bit, through] of words) {
    const p = r.term(lang, term);
    let weight = r.idf(lang, term) * factor;
    if (through) { weight *= c.TRANSLATED; }
    const concept = factor < c.CONCEPT_CREDIT;
    const plain = bit >= 0 ? titleStems(p, bit) : new Map();
    for (let i = 0; i < p.docs.length; i++) {
      const d = p.docs[i];
      if (!allowed[d]) { continue; }
      let v = weight * (plain.has(i) ? plain.get(i) : p.impacts[i]);
      if (concept) {
        const acc = near.get(d);
        if (acc === undefined) {
          near.set(d, [v, factor, through]);
        } else {
          acc[0] += v;
          acc[1] += factor;
          acc[2] = acc[2] && through;
        }
        continue;
      }
      if (bit >= 0 && !((p.masks[i] >> bit) & 1)) { v *= c.INEXACT; }
      const old = found.get(d);
      if (old === undefined || v > old[0]) { found.set(d, [v, term, i, 1.0, through]); }
    }
  }
  for (const terms of slot.phrases[lang] || []) {
    for (const [d, v, i] of phraseDocs(terms, lang, r, allowed)) {
      const old = found.get(d);
      if (old === undefined || v > old[0]) { found.set(d, [v, terms[0], i, 1.0, false]); }
    }
  }
  for (const [terms, factor] of slot.via[lang] || []) {
    if (terms.length < 2) { continue; }
    for (const [d, phrase, i] of phraseDocs(terms, lang, r, allowed)) {
      const v = phrase * factor * c.TRANSLATED;
      const old = found.get(d);
      if (old === undefined || v > old[0]) { found.set(d, [v, terms[0], i, 1.0, true]); }
    }
  }
  for (const [d, factor] of slot.names[lang] || []) {
    if (allowed[d]) {
      const v = slot.nameIdf * c.NAME_IMPACT * factor;
      const old = found.get(d);
      if (old === undefined || v > old[0]) { found.set(d, [v, -1, -1, 1.0, false]); }
    }
  }
  for (const [d, [v, credit, through]] of near) {
    if (!found.has(d)) { found.set(d, [v, -1, -1, Math.min(credit, c.CONCEPT_CREDIT), through]); }
  }
  return found;
}

function titleStems(p, bit) {
  const t = p.titles;
  const found = new Map();
  for (let k = 0; k < t.length; k += 3) { if (!((t[k + 2] >> bit) & 1)) { found.set(t[k], t[k + 1]); } }
  return found;
}

function phraseDocs(terms, lang, r, allowed) {
  const lists = terms.map((t) => r.term(lang, t));
  const first = lists[0];
  const found = [];
  for (let i = 0; i < first.docs.length; i++) {
    const d = first.docs[i];
    if (!allowed[d]) { continue; }
    const where = lists.map((p) => indexOf(p, d));
    if (where.includes(-1)) { continue; }
    let starts = new Set(first.positions[i]);
    for (let k = 1; k < lists.length; k++) {
      const shifted = new Set(lists[k].positions[where[k]].map((x) => x - k));
      starts = new Set([...starts].filter((x) => shifted.has(x)));
    }
    if (starts.size) {
      let v = 0;
      lists.forEach((p, k) => { v += r.idf(lang, terms[k]) * p.impacts[where[k]]; });
      found.push([d, v, i]);
    }
  }
  return found;
}

function score(slots, langs, r, allowed) {
  const c = r.c;
  const total = slots.reduce((sum, s) => sum + s.weight, 0);
  const base = new Map();
  const bestLang = new Map();
  const hits = {};
  for (const lang of langs) {
    const perSlot = hits[lang] = slots.map((s) => allowedHits(s, lang, r, allowed));
    const sums = new Map();
    const weights = new Map();
    slots.forEach((slot, k) => {
      for (const [d, h] of perSlot[k]) {
        sums.set(d, (sums.get(d) || 0) + h[0]);
        weights.set(d, (weights.get(d) || 0) + slot.weight * h[3]);
      }
    });
    const every = slots.every((slot) => slot.stop);
    for (const [d, s] of sums) {
      if (every && weights.get(d) < total) { continue; }
      const value = s * Math.pow(weights.get(d) / total, c.COVERAGE_POWER) * r.boost(d);
      if (value > (base.get(d) || 0)) { base.set(d, value); bestLang.set(d, lang); }
    }
  }
  const top = [...base.keys()].sort((a, b) => base.get(b) - base.get(a) || a - b).slice(0, c.RERANK);
  let refined = new Map(top.map((d) => {
    const lang = bestLang.get(d);
    return [d, base.get(d) * features(d, slots, hits[lang], lang, r)];
  }));
  refined = cited(refined, r);
  const ranked = [...refined.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return ranked.map(([d, s]) => [d, s, through(d, hits, bestLang.get(d))]);
}

/* kb.search.rank._through: [lang, slot indices] of a document matched only through translations, else []. */
function through(d, hits, lang) {
  for (const perSlot of Object.values(hits)) {
    for (const found of perSlot) { const h = found.get(d); if (h && h[4] === false) { return []; } }
  }
  const picked = [];
  hits[lang].forEach((found, k) => { const h = found.get(d); if (h && h[4]) { picked.push(k); } });
  return [lang, ...picked];
}

function features(d, slots, perSlot, lang, r) {
  const c = r.c;
  const positions = [];
  for (const found of perSlot) {
    const h = found.get(d);
    if (h !== undefined && h[1] >= 0) { positions.push(r.term(lang, h[1]).positions[h[2]]); }
  }
  const factor = 1 + c.PROXIMITY_BONUS * proximity(positions, c.WINDOW);
  const total = slots.reduce((sum, s) => sum + s.weight, 0);
  for (const head of r.heads(d, lang)) {
    const terms = new Set(head);
    const byHead = [];
    slots.forEach((s, k) => {
      const h = perSlot[k].get(d);
      if (h && terms.has(h[1]) && !h[4]) { byHead.push(s.weight); } /* a translation is not the headword typed */
    });
    if (byHead.length >= terms.size && byHead.reduce((a, b) => a + b, 0) >= c.HEAD_SHARE * total) {
      return factor * (1 + c.HEAD_BONUS);
    }
  }
  return factor;
}

export function proximity(found, window) {
  if (found.length < 2) { return 0; }
  let total = 0;
  for (let k = 0; k + 1 < found.length; k++) {
    const first = found[k];
    const second = found[k + 1];
    let best = 0;
    let j = 0;
    for (const p of first) {
      while (j < second.length && second[j] <= p) { j++; }
      if (j < second.length && second[j] - p <= window) { best = Math.max(best, 1 / (second[j] - p)); }
      if (j > 0 && second[j - 1] < p && p - second[j - 1] <= window) {
        best = Math.max(best, 0.5 / (p - second[j - 1]));
      }
    }
    total += best;
  }
  return total / (found.length - 1);
}

function cited(scored, r) {
  let top = 0;
  for (const s of scored.values()) { top = Math.max(top, s); }
  if (top <= 0) { return scored; }
  const citing = new Map();
  for (const [d, s] of scored) {
    for (const cd of r.cites(d)) { citing.set(cd, (citing.get(cd) || 0) + s / top); }
  }
  const out = new Map();
  for (const [d, s] of scored) { out.set(d, s * (1 + r.c.CITED_BONUS * Math.min(1, citing.get(d) || 0))); }
  return out;
}

/* --- results (kb.search.results) ---------------------------------------------------------------------------- */

/* A snippet as parts [{text, mark}] (kb.search.results.snippet, whose `**` marks are the `mark: true` parts). */
export function snippet(text, spans, c) {
  const chars = Array.from(text);
  if (!spans.length) { return [{ text: clip(chars, c), mark: false }]; }
  let best = 0;
  let count = 0;
  let j = 0;
  for (let i = 0; i < spans.length; i++) {
    j = Math.max(j, i);
    while (j < spans.length && spans[j][1] - spans[i][0] <= c.SNIPPET - c.LEAD) { j++; }
    if (j - i > count) { best = i; count = j - i; }
  }
  let start = Math.max(0, spans[best][0] - c.LEAD);
  const cut = start ? rfindSpace(chars, Math.max(0, start - c.LEAD), start) : -1;
  start = cut >= 0 ? cut + 1 : start;
  const end = Math.min(chars.length, start + c.SNIPPET);
  const parts = [];
  let pos = start;
  let from = 0;
  while (from < spans.length && spans[from][0] < start) { from++; }
  for (const [a, b] of spans.slice(from, best + count)) {
    if (a >= pos && b <= end) {
      parts.push({ text: chars.slice(pos, a).join(""), mark: false });
      parts.push({ text: chars.slice(a, b).join(""), mark: true });
      pos = b;
    }
  }
  parts.push({ text: chars.slice(pos, end).join(""), mark: false });
  for (const part of parts) { part.text = part.text.replace(/\n/g, " "); }
  if (start) { parts.unshift({ text: "…", mark: false }); }
  if (end < chars.length) { parts.push({ text: "…", mark: false }); }
  return parts.filter((p) => p.text);
}

function rfindSpace(chars, lo, hi) {
  for (let i = hi - 1; i >= lo; i--) { if (chars[i] === " ") { return i; } }
  return -1;
}

function clip(chars, c) {
  const flat = chars.slice(0, c.SNIPPET * 2).join("").replace(/\n/g, " ");
  const flatChars = Array.from(flat);
  if (flatChars.length <= c.SNIPPET) { return flat; }
  const cut = rfindSpace(flatChars, 0, c.SNIPPET);
  return flatChars.slice(0, cut > 0 ? cut : c.SNIPPET).join("") + "…";
}

/* --- the index files ------------------------------------------------------------------------------------------- */

/* An index in the browser (or Node): `load(name)` returns the parsed JSON file `name` of the index folder. */
export class Index {
  constructor(core, load) {
    if (core.format !== 2) { throw new Error(`search index format ${core.format} is not supported`); }
    this.core = core;
    this.c = core.constants;
    this.langs = core.langs;
    this.load = load;
    this.shards = new Map();
    this.chunks = new Map();
    this.stops = {};
    this.nDocs = {};
    this.vocabLists = {};
    for (const lang of this.langs) {
      this.stops[lang] = new Set(core.lang[lang].stops);
      this.nDocs[lang] = core.lang[lang].n;
    }
  }

  static async open(load) { return new Index(await load("core.json"), load); }

  word(lang, w) {
    const v = this.core.lang[lang].vocab;
    return Object.prototype.hasOwnProperty.call(v, w) ? [v[w][0], v[w][2]] : null;
  }

  form(lang, f) {
    const forms = this.core.lang[lang].forms;
    return Object.prototype.hasOwnProperty.call(forms, f) ? forms[f] : null;
  }

  idf(lang, t) { return this.core.lang[lang].idf[t]; }

  lexicon() { return this.core.lexicon || {}; }

  concept(lang, t) {
    const concepts = this.core.lang[lang].concepts;
    return Object.prototype.hasOwnProperty.call(concepts, String(t)) ? concepts[String(t)] : [];
  }

  names(lang, prefix, limit) {
    const list = this.core.lang[lang].names;
    let lo = 0;
    let hi = list.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (list[mid][0] < prefix) { lo = mid + 1; } else { hi = mid; } }
    const found = [];
    for (let i = lo; i < list.length && found.length < limit && list[i][0].startsWith(prefix); i++) {
      found.push(list[i]);
    }
    return found;
  }

  near(word) {
    const found = [];
    const size = word.length;
    for (const lang of this.langs) {
      const stops = this.stops[lang];
      const vocab = this.core.lang[lang].vocab;
      if (!this.vocabLists[lang]) {
        this.vocabLists[lang] = Object.keys(vocab).filter((w) => {
          const size = [...w].length;
          return size >= this.c.FUZZY_MIN && size <= this.c.FUZZY_MAX_LEN && isAlpha(w) && !stops.has(w);
        });
      }
      for (const w of this.vocabLists[lang]) {
        if (Math.abs(w.length - size) <= 1 && osaWithinOne(word, w)) {
          found.push([lang, w, vocab[w][0], vocab[w][1], vocab[w][2]]);
        }
      }
    }
    return found;
  }

  term(lang, t) {
    const shard = this.shards.get(t % this.core.shards);
    const p = shard && shard[lang] && shard[lang][String(t)];
    if (!p) { return { docs: [], impacts: [], positions: [], masks: [], titles: [] }; }
    if (p.decoded === undefined) { // [docs, impacts, counts, flat positions, masks, titles]: cut the positions once
      const positions = [];
      let at = 0;
      for (const n of p[2]) { positions.push(p[3].slice(at, at + n)); at += n; }
      p.decoded = { docs: p[0], impacts: p[1], positions, masks: p[4], titles: p[5] };
    }
    return p.decoded;
  }

  boost(d) { return this.core.docs.boost[d]; }
  heads(d, lang) { return (this.core.docs.heads[d] || {})[lang] || []; }
  cites(d) { return this.core.docs.cites[d] || []; }

  async fetchShards(slots, langs, excluded) {
    const needed = new Set();
    for (const s of slots) {
      for (const lang of langs) {
        for (const [t] of s.words[lang] || []) { needed.add(t % this.core.shards); }
        for (const terms of s.phrases[lang] || []) { for (const t of terms) { needed.add(t % this.core.shards); } }
        for (const [terms] of s.via[lang] || []) { for (const t of terms) { needed.add(t % this.core.shards); } }
      }
    }
    for (const t of excluded) { needed.add(t % this.core.shards); }
    await Promise.all([...needed].filter((k) => !this.shards.has(k)).map(async (k) => {
      this.shards.set(k, await this.load(`terms-${k}.json`));
    }));
  }

  async payload(d) {
    const k = Math.floor(d / this.core.chunk);
    if (!this.chunks.has(k)) { this.chunks.set(k, this.load(`docs-${k}.json`)); }
    const p = (await this.chunks.get(k))[d % this.core.chunk];
    return { titles: p[0], texts: p[1], names: p[2], context: p[3], spans: p[4], bounds: p[5] };
  }

  /* Answer the query box: {results, corrected}; throws SearchError when malformed. */
  async search(text, limit = 10) {
    const parsed = parseQuery(text, this.core.pattern);
    for (const value of parsed.editions) {
      throw new SearchError(
        `edition:${value} works in the command line (kb search --edition); the site holds the current edition`);
    }
    const langs = narrow(parsed.langs, this.langs, "lang");
    const kinds = narrow(parsed.kinds, KINDS, "kind");
    const docs = this.core.docs;
    const allowed = docs.kind.map((k, d) => {
      const shown = kinds.includes(k) && docs.langs[d].some((l) => langs.includes(l)) && docs.url[d] !== null;
      return shown ? 1 : 0;
    });
    if (parsed.number && kinds.includes("rule")) {
      const under = docs.number.map((n, d) => d)
        .filter((d) => allowed[d] && docs.number[d] && descends(docs.number[d], parsed.number));
      const keys = new Map(under.map((d) => [d, sortKey(docs.number[d])]));
      under.sort((a, b) => compareKeys(keys.get(a), keys.get(b)) || a - b);
      if (under.length) {
        const found = await Promise.all(under.slice(0, limit).map((d) => this.result(d, 0, {}, this.langs)));
        return { results: found, corrected: null };
      }
    }
    const slots = translate(parsed, this, langs);
    const excludedTerms = this.excludedTerms(parsed.excluded, langs);
    await this.fetchShards(slots, langs, excludedTerms.flatMap((e) => e[1]));
    if (!slots.length) { return { results: [], corrected: null }; }
    const fixed = new Map(slots.filter((s) => s.fixed).map((s) => [s.text, s.fixed]));
    const corrected = fixed.size
      ? parsed.groups.flat().flatMap((i) => queryTokens(i.text).map((t) => fixed.get(t[1]) || t[1])).join(" ")
      : null;
    this.exclude(excludedTerms, allowed);
    const ranked = score(slots, langs, this, allowed).slice(0, limit);
    const terms = matchedTerms(slots, langs, this.c);
    const results = await Promise.all(ranked.map(async ([d, s, via]) => {
      const result = await this.result(d, s, terms, langs);
      if (via.length) {
        const [lang, ...picked] = via;
        result.translated = picked.flatMap((k) => slots[k].translated.filter((x) => x[1] === lang));
      }
      return result;
    }));
    return { results, corrected };
  }

  excludedTerms(items, langs) {
    const out = [];
    for (const item of items) {
      const words = queryTokens(item.text).map((t) => t[1]);
      for (const lang of langs) {
        const terms = words.map((w) => { const f = this.word(lang, w); return f ? f[0] : null; });
        out.push([lang, terms.filter((t) => t !== null), item.phrase && words.length > 1, terms.includes(null)]);
      }
    }
    return out;
  }

  exclude(excludedTerms, allowed) {
    for (const [lang, terms, phrase, missing] of excludedTerms) {
      if (phrase) {
        if (!missing) { for (const [d] of phraseDocs(terms, lang, this, allowed)) { allowed[d] = 0; } }
        continue;
      }
      for (const t of terms) { for (const d of this.term(lang, t).docs) { allowed[d] = 0; } }
    }
  }

  async result(d, score, terms, langs) {
    const payload = await this.payload(d);
    const docs = this.core.docs;
    const snippets = {};
    const matched = [];
    for (const lang of docs.langs[d]) {
      const text = payload.texts[lang] || "";
      const bounds = payload.bounds[lang];
      const spans = this.matchedSpans(d, lang, terms[lang] || new Set(), bounds, payload.spans[lang] || []);
      const title = Array.from(payload.titles[lang] || "");
      snippets[lang] = text ? snippet(text, spans, this.c) : [{ text: clip(title, this.c), mark: false }];
      const titleHit = bounds && this.inTitle(d, lang, terms[lang] || new Set(), bounds);
      if ((spans.length || titleHit) && langs.includes(lang)) { matched.push(lang); }
    }
    const order = [...new Set([...matched, ...langs.filter((l) => docs.langs[d].includes(l)), ...docs.langs[d]])];
    const kind = docs.kind[d];
    const names = kind === "card" ? payload.names : null;
    let title = "";
    for (const t of [names, payload.titles]) {
      for (const lang of order) { if (!title && t && t[lang]) { title = t[lang]; } }
    }
    if (!title) {
      for (const lang of order) {
        if (!title && payload.context[lang]) { title = payload.context[lang].split("\n")[0]; }
      }
    }
    const [id, number, url] = [docs.key[d], docs.number[d], docs.url[d]];
    return { kind, id, number, title, names: payload.names, langs: order, snippets, score, url, translated: [] };
  }

  positions(d, lang, t) {
    const p = this.term(lang, t);
    const i = indexOf(p, d);
    return i >= 0 ? p.positions[i] : [];
  }

  matchedSpans(d, lang, terms, bounds, spans) {
    if (!terms.size || !bounds) { return []; }
    const [lo, hi] = [bounds[2], bounds[3]];
    const found = new Set();
    for (const t of terms) {
      for (const x of this.positions(d, lang, t)) { if (lo <= x && x < hi) { found.add(x - lo); } }
    }
    return [...found].sort((a, b) => a - b).map((k) => [spans[2 * k], spans[2 * k + 1]]);
  }

  inTitle(d, lang, terms, bounds) {
    for (const t of terms) {
      if (this.positions(d, lang, t).some((x) => bounds[0] <= x && x < bounds[1])) { return true; }
    }
    return false;
  }
}

function narrow(fromQuery, allowed, name) {
  for (const value of fromQuery) {
    if (!allowed.includes(value)) {
      throw new SearchError(`unknown ${name} '${value}'; use one of ${allowed.join(", ")}`);
    }
  }
  return allowed.filter((v) => !fromQuery.length || fromQuery.includes(v));
}

function matchedTerms(slots, langs, c) {
  const found = {};
  for (const lang of langs) { found[lang] = new Set(); }
  for (const s of slots) {
    for (const lang of langs) {
      for (const [t, f] of s.words[lang] || []) { if (f >= c.CONCEPT_CREDIT) { found[lang].add(t); } }
      for (const terms of s.phrases[lang] || []) { for (const t of terms) { found[lang].add(t); } }
      for (const [terms, f] of s.via[lang] || []) {
        if (f >= c.CONCEPT_CREDIT) { for (const t of terms) { found[lang].add(t); } }
      }
    }
  }
  return found;
}
