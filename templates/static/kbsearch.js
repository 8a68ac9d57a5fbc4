/* Search in the browser, over the site's export of kb's Whoosh index (kb/search/static.py). What the browser must
   do itself, it does as kb's Python does: the query box (kb/search/query.py), query words -> slots
   (kb/search/lookup.py), the query's score (the sum of Whoosh's exported BM25F scores, as kb/search/index.py asks
   Whoosh) and kb's re-rank (kb/search/rank.py). tests/test_search.py runs the same questions through both and
   compares the results. */

import "./kbtext.js";

const { fold, ruleNumber } = globalThis.kbText;

const W = String.raw`[\p{L}\p{N}_]`;
const SYMBOL = String.raw`\{[^{}\s]{1,8}\}`;
const STAT = String.raw`[+\-−]?(?:\p{Nd}+|[xX*])/[+\-−]?(?:\p{Nd}+|[xX*])`;
/* kb.search.text.TOKEN: a symbol, power/toughness or a counter, or a word. */
const TOKEN = new RegExp(String.raw`(${SYMBOL})|((?<![\p{L}\p{N}_/])${STAT}(?![\p{L}\p{N}_/]))|(${W}+(?:\.${W}+)*(?:['’]t(?!${W}))?)`, "gu");
const STATS = new RegExp(`^${STAT}$`, "u");
export const KINDS = ["rule", "glossary", "card", "ruling", "note"];
const FILTERS = ["lang", "kind", "edition"];
const QUERY_TOKEN = /(-?)(?:"([^"]*)"|([^\s"]+))/g;
const LETTERS = "abcdefghijkmnpqrstuvwxyz";
const STOP = "~"; /* kb.search.text.STOP: a stop word's term, for phrases */
const EXACT = "="; /* kb.search.text.EXACT: a word as written */
const MARKER = /^\s*\(?\s*(?:(?:see|voir|cf)\.?\s+)?(rules?|regles?)\b/i; /* kb.search.query.MARKER */
const MARKER_LANGS = { rule: "en", regle: "fr" };

/* A malformed query: `code` names its message in the page's table of words (search.html's `search-words`,
   `query_<code>`), `values` fill it in; `message` is the English one, as `kb search` says it. */
export class SearchError extends Error {
  constructor(code, values, message) { super(message); this.code = code; this.values = values; }
}

const own = (map, key) => Object.prototype.hasOwnProperty.call(map, key);
const isAlpha = (word) => /^\p{L}+$/u.test(word);
const size = (word) => [...word].length;
const sum = (values) => values.reduce((a, b) => a + b, 0);
const idf = (n, df) => Math.log(n / (df + 1)) + 1;

/* (kind, folded text) of the tokens of a query (kb.search.text.query_tokens). */
export function queryTokens(text) {
  const kinds = ["symbol", "stats", "word"];
  return [...fold(text).replace(/−/g, "-").matchAll(TOKEN)].map((m) => [kinds[m[1] ? 0 : m[2] ? 1 : 2], m[0]]);
}

function isStop(word, kind, stops) { return kind === "word" && (size(word) < 2 || stops.has(word)); }

/* 32-bit FNV-1a of the UTF-8 bytes: the shard of a key (kb.sources.text.fnv1a). */
export function fnv1a(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) { h = Math.imul(h ^ byte, 0x01000193) >>> 0; }
  return h;
}

/* --- the query box (kb.search.query) ----------------------------------------------------------------------- */

export function parseQuery(text, pattern) {
  text = String(text).replace(/[\x00-\x1f\x7f-\x9f]/g, " ");
  const or = () => new SearchError("or", {}, "OR needs a word on each side (a OR b)");
  if ((text.match(/"/g) || []).length % 2) {
    throw new SearchError("unbalanced", {}, 'unbalanced quote in query; close the phrase with " or remove the quote');
  }
  const filters = { lang: [], kind: [], edition: [] };
  const [groups, excluded] = [[], []];
  let pendingOr = false;
  for (const m of text.matchAll(QUERY_TOKEN)) {
    let [neg, phrase, word] = [m[1], m[2], m[3]];
    if (word && word.includes(":") && FILTERS.includes(word.split(":")[0].toLowerCase()) && !neg) {
      const name = word.slice(0, word.indexOf(":")).toLowerCase();
      for (let value of word.slice(word.indexOf(":") + 1).split(",")) {
        value = name === "edition" ? value : value.toLowerCase();
        if (name === "kind" && !KINDS.includes(value)) {
          throw new SearchError("kind", { value, allowed: KINDS.join(", ") }, `unknown kind '${value}'; use kind:${KINDS.join("|")}`);
        }
        filters[name].push(value);
      }
      continue;
    }
    if (word === "OR" && !neg) {
      if (!groups.length || pendingOr) { throw or(); }
      pendingOr = true;
      continue;
    }
    if (neg && word && STATS.test("-" + word)) { neg = ""; word = "-" + word; }
    const item = phrase || !word ? { text: phrase || "", phrase: true } : { text: word, phrase: false };
    if (!item.text.trim()) { continue; }
    if (neg) { excluded.push(item); } else if (pendingOr) { groups[groups.length - 1].push(item); pendingOr = false; }
    else { groups.push([item]); }
  }
  if (pendingOr) { throw or(); }
  if (!groups.length) {
    const what = excluded.length ? "only excluded words" : "nothing to search for";
    throw new SearchError(excluded.length ? "excluded" : "nothing", {}, `${what}; type words, a phrase in quotes or a rule number`);
  }
  const box = groups.map((g) => g.map((i) => i.text).join(" ")).join(" ");
  const plain = groups.every((g) => g.length === 1 && !g[0].phrase) && !excluded.length;
  const number = plain && pattern ? ruleNumber(box, pattern) : null;
  const marker = number ? MARKER.exec(fold(box)) : null;
  const numberLang = marker ? MARKER_LANGS[marker[1].toLowerCase().replace(/s$/, "")] || null : null;
  return { number, numberLang, groups, excluded, langs: filters.lang, kinds: filters.kind, editions: filters.edition };
}

/* Rule order (kb.model.numbers.sort_key) and subtrees (descends). */
export function sortKey(number) {
  const m = /^(\d+)(?:\.(\d+)([a-z]?))?$/.exec(number);
  if (!m) { return [0, 0, 0]; }
  if (m[1].length === 1) { return [Number(m[1]) * 100, -2, -1]; }
  if (m[2] === undefined) { return [Number(m[1]), -1, -1]; }
  return [Number(m[1]), Number(m[2]), m[3] ? LETTERS.indexOf(m[3]) : -1];
}

export function descends(number, ancestor) {
  if (number === ancestor) { return true; }
  if (ancestor.length === 1) { return number.length >= 3 && number[0] === ancestor && /^\d{3}/.test(number); }
  if (!ancestor.includes(".")) { return number.split(".")[0] === ancestor; }
  return number.startsWith(ancestor) && /^[a-z]+$/.test(number.slice(ancestor.length));
}

function compare(a, b) {
  const i = a.findIndex((x, k) => x !== b[k]);
  return i < 0 ? 0 : a[i] - b[i];
}

/* Levenshtein distance, or limit + 1 when greater (Whoosh's automaton: no transpositions). */
function distance(a, b, limit) {
  if (Math.abs(a.length - b.length) > limit) { return limit + 1; }
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) { cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)); }
    if (Math.min(...cur) > limit) { return limit + 1; }
    prev = cur;
  }
  return prev[b.length];
}

/* What a search run throws to stop where it lacks files (`Index.search`). */
const LACKING = Symbol("lacking");
/* Rounds of files a prefetch of the words typed asks at most (their shards, their translations', postings). */
const PREFETCH_STEPS = 3;

const newSlot = (text, stop, lang = null) => ({ text, stop, lang, alts: [], exact: [], names: [], missing: [], stems: [], fixed: null, translated: [], typed: "", near: [] });

export class Index {
  constructor(core, load) {
    if (core.format !== 6) { throw new Error(`search index format ${core.format} is not supported`); }
    Object.assign(this, { core, load, c: core.c, langs: core.langs, files: new Map(), got: new Map(), phrases_: new Map() });
    const runs = (list) => list.flatMap(([value, count]) => Array(count).fill(value));
    core.kinds = runs(core.kinds).map((k) => KINDS[k]);
    core.langsOf = runs(core.langsOf).map((bits) => core.langs.filter((l, k) => bits & (1 << k)));
    this.stops = Object.fromEntries(this.langs.map((l) => [l, new Set(core.stops[l] || [])]));
    this.phrases = Object.fromEntries(this.langs.map((l) => [l, new Set((core.phrases || {})[l] || [])]));
  }

  static async open(load) { return new Index(await load("core.json"), load); }

  /* A file of the export, as read; one not read yet is noted in the run's `wanted` and stands as `{}` (`search`). */
  file(name) {
    if (this.got.has(name)) { return this.got.get(name); }
    this.wanted.add(name);
    return {};
  }

  /* Fetch a file once (a failed fetch is tried again by a later search). */
  fetched(name) {
    if (!this.files.has(name)) {
      this.files.set(name, this.load(name).then(
        (value) => { this.got.set(name, value); return value; },
        (err) => { this.files.delete(name); throw err; },
      ));
    }
    return this.files.get(name);
  }

  /* A language's part of the shard of a key: `{key: value}`. */
  async shard(kind, key, lang) {
    const part = await this.file(`${kind}-${fnv1a(key) % this.c[kind.toUpperCase()]}.json`);
    return (lang ? part[lang] : part) || {};
  }

  async forms(lang, word) { const part = await this.shard("vocab", word, lang); return own(part, word) ? part[word] : []; }

  /* The words (as folded) that have an index form. */
  async wordsOf(lang, form) {
    const part = await this.shard("forms", form.slice(0, this.c.STEM_MIN), lang);
    return own(part, form) ? part[form] : [];
  }

  async stemPrefix(lang, word) {
    const part = await this.shard("forms", word.slice(0, this.c.STEM_MIN), lang);
    for (let end = word.length - 1; end >= this.c.STEM_MIN; end--) { if (own(part, word.slice(0, end))) { return word.slice(0, end); } }
    return null;
  }

  async nameTerms(prefix, exact) {
    const part = await this.shard("names", prefix.slice(0, this.c.NAME_MIN));
    if (exact) { return own(part, prefix) ? [prefix] : []; }
    return Object.keys(part).filter((w) => w.startsWith(prefix)).sort().slice(0, this.c.NAME_LIMIT);
  }

  /* term -> {field: [docs, scores]}, from the term's shard (documents as gaps, scores as picks in a table). */
  async postings(term) {
    const part = await this.shard("terms", term);
    const found = {};
    for (const [field, [gaps, distinct, picks, df]] of Object.entries(own(part, term) ? part[term] : {})) {
      let d = 0;
      const docs = gaps.map((g) => (d += g));
      found[field] = [docs, docs.map((_, i) => distinct[picks.length ? picks[i] : 0]), df];
    }
    return found;
  }

  /* --- query words -> slots (kb.search.lookup.slots) ------------------------------------------------------ */

  units(parsed) {
    const found = [];
    for (const [g, group] of parsed.groups.entries()) {
      if (group.length === 1 && !group[0].phrase) {
        const tokens = queryTokens(group[0].text);
        const whole = tokens.length > 1 ? group[0].text : "";
        for (const [kind, text] of tokens) {
          found.push({ tokens: [[kind, text, false]], word: kind === "word" ? text : null, typed: tokens.length === 1 ? group[0].text : text,
            item: g, whole, size: tokens.length });
        }
        continue;
      }
      const alts = group.flatMap((item) => (item.phrase ? [["word", queryTokens(item.text).map(([, w]) => w).join(" "), true]]
        : queryTokens(item.text).map(([k, w]) => [k, w, false])));
      found.push({ tokens: alts, word: null, typed: alts.map(([, w]) => w).join(" OR ") });
    }
    return found;
  }

  async spans(found, langs) {
    const spans = [];
    const firsts = {}; /* per source language, each unit's word's first index form (once) */
    for (const name of Object.keys(this.core.lexicon).sort()) {
      const table = this.core.lexicon[name];
      const [source, target] = name.split(">");
      if (!langs.includes(target)) { continue; }
      if (!own(firsts, source)) {
        firsts[source] = [];
        for (const u of found) { const f = u.word === null ? [] : await this.forms(source, u.word); firsts[source].push(f.length ? f[0] : null); }
      }
      const first = firsts[source];
      for (let k = 0; k < found.length;) {
        if (found[k].word === null) { k++; continue; }
        let end = k;
        while (end < found.length && end - k < table.longest && found[end].word !== null) { end++; }
        let n = end - k;
        let entry = null;
        for (; n > 0; n--) { /* as typed, else by the words' first index forms (kb.search.lookup._spans) */
          const words = found.slice(k, k + n).map((u) => u.word);
          const key = words.join(" ");
          if (own(table.keys, key)) { entry = table.keys[key]; break; }
          if (n > 1) {
            const joined = words.map((w, j) => first[k + j] || w).join(" ");
            if (own(table.terms, joined)) { entry = table.terms[joined]; break; }
            if (own(table.keys, joined)) { entry = table.keys[joined]; break; }
          }
        }
        if (n > 0) { spans.push([k, k + n, source, target, entry]); k += n; continue; }
        entry = first[k] !== null && own(table.terms, first[k]) ? table.terms[first[k]] : null;
        if (entry && !isStop(found[k].word, "word", this.stops[source] || new Set())) { spans.push([k, k + 1, source, target, entry]); }
        k++;
      }
    }
    return spans;
  }

  async slots(parsed, langs) {
    const found = this.units(parsed);
    const spans = await this.spans(found, langs);
    const stops = new Set(langs.flatMap((l) => [...(this.stops[l] || [])]));
    const mine = await this.queryLang(found, langs);
    const made = [];
    for (let k = 0; k < found.length;) {
      const here = spans.filter((s) => s[0] === k);
      const end = here.length ? Math.max(...here.map((s) => s[1])) : k + 1;
      let slot;
      if (end - k > 1) {
        slot = newSlot(found.slice(k, end).map((u) => u.word || "").join(" "), false, mine);
        await this.addPhrase(slot, slot.text, langs);
      } else {
        slot = await this.unitSlot(found[k], langs, stops, mine);
      }
      const typed = (slot.typed = typedText(found.slice(k, end)));
      for (const [, stop, source, target, entry] of here) {
        if (stop !== end) { continue; } /* a shorter run another table translates (kb.search.lookup.slots) */
        if (mine !== null && mine !== source) { continue; } /* a word of another language than the query's */
        if (await this.addTranslation(slot, entry, target)) {
          slot.translated.push([source, target, typed, entry[0].length ? entry[0] : entry[1].slice(0, 1)]);
        }
      }
      if (slot.translated.length) { slot.alts.push(...slot.stems); slot.missing = []; }
      made.push(slot);
      k = end;
    }
    const kept = made.filter((s) => !s.stop).slice(0, this.c.MAX_SLOTS);
    if (kept.length > 1) {
      const asked = new Set(kept.flatMap((s) => s.alts.flatMap((a) => a.forms)));
      for (const s of kept) { this.addConcepts(s, langs, asked, kept.length <= this.c.CONCEPT_SLOTS); }
    }
    if (kept.length) { return kept; }
    return made.slice(0, this.c.MAX_SLOTS).map((s) => Object.assign(newSlot(s.text, true), { names: [s.text] }));
  }

  /* The characteristic terms of a slot's one word, or of its one translation (kb.search.lookup.add_concepts). */
  addConcepts(slot, langs, asked, translated) {
    for (const lang of langs) {
      const table = (this.core.concepts || {})[lang] || {};
      const alts = slot.alts.filter((a) => a.lang === lang && !a.phrase);
      const mine = alts.filter((a) => !a.via && a.factor === 1);
      const base = mine.length ? mine : alts.filter((a) => translated && a.via && a.factor === this.c.TRANSLATED);
      if (base.length !== 1 || !own(table, base[0].forms[0])) { continue; }
      for (const [term, w] of table[base[0].forms[0]].filter(([t]) => !asked.has(t))) { slot.near.push([lang, term, this.c.CONCEPT_FACTOR * w]); }
    }
  }

  /* The language the query's words say (kb.search.lookup.query_lang), else null. */
  async queryLang(found, langs) {
    const votes = new Set();
    for (const unit of found) {
      for (const [kind, text] of unit.tokens) {
        for (const word of kind === "word" ? text.split(" ") : []) {
          const inside = [];
          for (const l of langs) { if (this.stops[l].has(word) || (await this.forms(l, word)).length) { inside.push(l); } }
          if (inside.length === 1) { votes.add(inside[0]); }
        }
      }
    }
    return votes.size === 1 ? [...votes][0] : null;
  }

  /* A stop word of the query: one of some searched language that no other searched language holds as a word of its
     own (« aura », the French "will have", is the English Aura); in a query whose words say its language (`mine`),
     any stop word of that language but one another language's rules have as a one-word headword
     (kb.search.lookup._stopped). */
  async stopped(word, kind, langs, stops, mine = null) {
    if (!isStop(word, kind, stops)) { return false; }
    const others = [];
    for (const l of langs) {
      const forms = this.stops[l].has(word) ? [] : await this.forms(l, word);
      if (forms.length) { others.push([l, forms[0]]); }
    }
    if (mine !== null && this.stops[mine].has(word)) {
      return !others.some(([l, first]) => own((this.core.concepts || {})[l] || {}, first));
    }
    return !others.length;
  }

  async unitSlot(unit, langs, stops, mine) {
    let stop = true;
    for (const [k, w, p] of unit.tokens) { if (p || !(await this.stopped(w, k, langs, stops, mine))) { stop = false; break; } }
    const slot = newSlot(unit.tokens.map(([, w]) => w).join(" OR "), stop, mine);
    for (const [kind, text, phrase] of unit.tokens) {
      if (phrase) { await this.addPhrase(slot, text, langs); continue; }
      let found = false;
      for (const lang of langs) { /* as written, in any language */
        const forms = await this.forms(lang, text);
        if (forms.length && mine !== null && mine !== lang) { /* the query's word in another language: a translation */
          slot.alts.push({ lang, forms: [forms[0]], factor: this.c.TRANSLATED, via: true });
          found = true;
        } else if (forms.length) {
          slot.alts.push({ lang, forms: [forms[0]], factor: 1, via: false });
          slot.exact.push([lang, forms[0] === text ? text : EXACT + text]);
          found = true;
        }
      }
      if (kind === "word" && size(text) >= this.c.NAME_MIN) { slot.names.push(text); }
      if (!found && kind === "word" && isAlpha(text) && size(text) <= this.c.MAX_WORD) {
        slot.missing.push(text);
        for (const lang of langs.filter((l) => mine === null || l === mine)) {
          const stem = await this.stemPrefix(lang, text);
          if (stem) { slot.stems.push({ lang, forms: [stem], factor: this.c.STEM_FACTOR, via: false }); }
        }
      }
    }
    return slot;
  }

  async addPhrase(slot, text, langs) {
    for (const lang of langs) {
      const words = queryTokens(text).map(([k, w]) => [w, isStop(w, k, this.stops[lang] || new Set())]);
      const forms = [];
      for (const [w, stop] of words) { forms.push(stop ? [STOP + w] : await this.forms(lang, w)); }
      if (this.phrases[lang].has(text)) { /* a lexicon term, indexed as one token */ slot.alts.push({ lang, forms: [text], factor: 1, via: false }); }
      else if (forms.length && forms.every((f) => f.length) && !words.every(([, stop]) => stop)) {
        slot.alts.push({ lang, forms: forms.filter((f, k) => !words[k][1]).map((f) => f[0]), factor: 1, via: false, phrase: forms.map((f) => f[0]) });
      }
    }
  }

  async addTranslation(slot, entry, lang) {
    let added = false;
    for (const target of [...entry[0], ...entry[1]]) {
      const key = queryTokens(target).map(([, w]) => w).join(" ");
      let alt = null;
      const forms = key.includes(" ") ? [] : await this.forms(lang, key);
      const stem = key.includes(" ") || forms.length || !isAlpha(key) ? null : await this.stemPrefix(lang, key);
      if (key.includes(" ")) { alt = { lang, forms: [key], factor: this.c.TRANSLATED, via: true }; }
      else if (forms.length) { alt = { lang, forms: [forms[0]], factor: this.c.TRANSLATED, via: true }; }
      else if (stem) { alt = { lang, forms: [stem], factor: this.c.TRANSLATED * this.c.STEM_FACTOR, via: true }; }
      if (alt && slot.alts.every((a) => a.lang !== lang || a.forms.join("\u0000") !== alt.forms.join("\u0000"))) {
        slot.alts.push(alt);
        added = true;
      }
    }
    return added;
  }

  /* The last word typed, unknown: the index forms starting with it (the first NAME_LIMIT), not a correction. */
  async unfinished(slot, langs) {
    const [word] = slot.missing;
    if (slot.missing.length !== 1 || size(word) < this.c.STEM_MIN) { return; }
    for (const lang of langs.filter((l) => !slot.lang || l === slot.lang)) {
      const part = await this.shard("forms", word.slice(0, this.c.STEM_MIN), lang);
      const forms = Object.keys(part).filter((f) => f.startsWith(word)).sort().slice(0, this.c.NAME_LIMIT);
      for (const f of forms) { slot.alts.push({ lang, forms: [f], factor: this.c.STEM_FACTOR, via: false }); }
    }
    if (slot.alts.length) { slot.missing = []; slot.stems = []; }
  }

  /* A missing word's correction (kb.search.index.SearchIndex._correct): one edit, else its stems, else two edits;
     among words sharing its first CORRECT_PREFIX letters, the commonest, then the shortest, then the first. */
  async correct(slot, langs) {
    const searched = langs;
    langs = slot.lang ? [slot.lang] : langs;
    for (const word of slot.missing) {
      const printed = await this.printed(word, langs); /* a word of the cards, not a typo: as typed, or its known stem */
      let best = printed ? null : (await this.suggestion(word, langs, 1)) ?? (await this.swapped(word, langs)), near = null;
      for (const l of best !== null && slot.stems.length ? langs : []) { /* another form of its stem: an inflection */
        if ((await this.forms(l, best)).slice(0, 1).some((f) => word.startsWith(f))) { near = best; best = null; break; }
      }
      if (best === null && (slot.stems.length || printed)) { slot.alts.push(...slot.stems); await this.translateMissing(slot, word, near, searched); continue; }
      best = best === null ? await this.suggestion(word, langs, 2) : best;
      if (best === null) { continue; }
      slot.fixed = best;
      for (const lang of langs) {
        for (const f of (await this.forms(lang, best)).slice(0, 1)) { slot.alts.push({ lang, forms: [f], factor: this.c.FUZZY_FACTOR, via: false }); }
      }
      await this.translateMissing(slot, word, best, searched);
    }
    slot.missing = [];
  }

  /* The translations of a missing word once corrected: of its correction, else of its stem (kb.search.lookup.translate_missing). */
  async translateMissing(slot, word, known, langs) {
    const stems = Object.fromEntries(slot.stems.map((a) => [a.lang, a.forms[0]]));
    for (const name of Object.keys(this.core.lexicon).sort()) {
      const table = this.core.lexicon[name];
      const [source, target] = name.split(">");
      if (!langs.includes(target) || target === source || (slot.lang !== null && slot.lang !== source)) { continue; }
      let entry = null;
      if (known !== null) {
        const forms = await this.forms(source, known);
        entry = own(table.keys, known) ? table.keys[known] : forms.length && own(table.terms, forms[0]) ? table.terms[forms[0]] : null;
      } else {
        const stem = (own(stems, source) ? stems[source] : await this.stemPrefix(source, word)) || "";
        for (const x of [stem, [...stem].slice(0, -1).join("")]) {
          if (size(x) >= this.c.STEM_MIN && own(table.terms, x)) { entry = table.terms[x]; break; }
        }
      }
      if (entry && (await this.addTranslation(slot, entry, target))) {
        const shown = slot.missing.length === 1 && slot.typed ? slot.typed : word; /* as typed, accents and all */
        slot.translated.push([source, target, shown, entry[0].length ? entry[0] : entry[1].slice(0, 1)]);
      }
    }
  }

  /* The commonest word that is the word with two neighbouring letters swapped (kb.search.engine.Engine._swapped). */
  async swapped(word, langs) {
    const chars = [...word];
    if (chars.length < this.c.SWAP_MIN) { return null; }
    let best = null, most = 0;
    for (let k = 0; k < chars.length - 1; k++) {
      if (chars[k] === chars[k + 1]) { continue; }
      const swapped = [...chars.slice(0, k), chars[k + 1], chars[k], ...chars.slice(k + 2)].join("");
      for (const lang of langs) {
        const counts = await this.shard("spell", chars[k === 0 ? 1 : 0], lang);
        const count = own(counts, swapped) ? counts[swapped] : 0;
        if (count > most) { best = swapped; most = count; }
      }
    }
    return best;
  }

  /* Whether a word the texts lack is printed on the cards (a spelling entry with no document: kb.search.spelling.Speller.printed). */
  async printed(word, langs) {
    for (const lang of langs) {
      const counts = await this.shard("spell", [...word][0] || "", lang);
      if (own(counts, word) && counts[word] === 0) { return true; }
    }
    return false;
  }

  async suggestion(word, langs, maxdist) {
    if (size(word) < 3 * maxdist) { return null; }
    const head = [...word].slice(0, this.c.CORRECT_PREFIX).join("");
    let best = null;
    for (const lang of langs) {
      for (const [w, n] of Object.entries(await this.shard("spell", [...word][0] || "", lang))) {
        if (!n || !w.startsWith(head) || w === word || distance(word, w, maxdist) > maxdist) { continue; }
        if (!best || n > best[1] || (n === best[1] && (size(w) < size(best[0]) || (size(w) === size(best[0]) && w < best[0])))) { best = [w, n]; }
      }
    }
    return best && best[0];
  }

  /* --- scoring (Whoosh's, as kb.search.index.query_of asks it) and kb's re-rank ------------------------- */

  /* (field, term) -> {field, term, via, df, docs: Map(doc -> score)} of everything a slot matches
     (kb.search.searcher.slot_terms). */
  async slotTerms(slot) {
    const terms = new Map();
    const add = async (field, term, via) => {
      const key = field + "\u0000" + term;
      if (terms.has(key)) { terms.get(key).via = terms.get(key).via && via; return; }
      const p = (await this.postings(term))[field] || [[], [], 0];
      terms.set(key, { field, term, via, df: p[2], docs: new Map(p[0].map((d, i) => [d, p[1][i] || 0])), words: await this.words(field, term) });
    };
    for (const alt of slot.alts) { for (const form of alt.forms) { await add(`body_${alt.lang}`, form, alt.via); } }
    for (const [lang, term] of slot.exact) { await add(`body_${lang}`, term, false); }
    for (const prefix of slot.names) {
      const part = await this.shard("names", prefix.slice(0, this.c.NAME_MIN));
      for (const w of await this.nameTerms(prefix, slot.stop)) {
        terms.set("name\u0000" + w, { field: "name", term: w, via: false, df: part[w][1], docs: new Map(part[w][0].map((d) => [d, 1])) });
      }
    }
    return terms;
  }

  /* What a term names of a headword: itself, or a term of several words' words' first forms (kb.search.engine._words). */
  async words(field, term) {
    if (!term.includes(" ") || !field.startsWith("body_")) { return [term]; }
    const lang = field.slice(5);
    const found = [];
    for (const w of term.split(" ")) { if (!isStop(w, "word", this.stops[lang] || new Set())) { found.push(...(await this.forms(lang, w)).slice(0, 1)); } }
    return found.length ? [...new Set(found)] : [term];
  }

  /* The characteristic terms of a slot (`slot.near`), each {share, docs: Set} (kb.search.searcher.concept_terms). */
  async nearTerms(slot) {
    const found = [];
    for (const [lang, term, share] of slot.near) { found.push({ share, docs: new Set(((await this.postings(term))[`body_${lang}`] || [[]])[0]) }); }
    return found;
  }

  weight(terms) {
    const n = this.core.n;
    const every = [...terms.values()].filter((t) => t.field !== "name" && !t.term.startsWith(EXACT) && t.df);
    const typed = every.filter((t) => !t.via); /* the words as typed, when in the index (kb.search.engine._weight) */
    const scored = typed.length ? typed : every;
    const names = sum([...terms.values()].filter((t) => t.field === "name").map((t) => t.df));
    return Math.max(0, ...scored.map((t) => idf(n, t.df)), ...(names ? [idf(n, Math.min(n, names))] : []));
  }

  /* A slot's score of a document: the best alternative it holds whole (a phrase: its words, where it is whole;
     a word found in two languages, or through three translations, counts once), and the card-name words. */
  async slotScore(slot, terms, d) {
    let [total, hit] = [0, false];
    for (const alt of slot.alts) {
      const values = alt.forms.map((form) => (terms.get(`body_${alt.lang}\u0000${form}`) || { docs: new Map() }).docs.get(d));
      const langs = this.core.langsOf[d];
      if (alt.via && !langs.includes(alt.lang)) { continue; } /* a translation finds texts, never a concept's name */
      if (values.every((v) => v !== undefined) && (!alt.phrase || await this.hasPhrase(d, alt.lang, alt.phrase))) {
        /* a translation in a document with no text in another language: lifted (kb.search.engine._factor) */
        const alone = langs.length === 1 && langs[0] === alt.lang;
        /* a concept's name in a language the document has no text in, not the query's: as a translation */
        const named = !alt.via && slot.lang !== alt.lang && !langs.includes(alt.lang);
        const factor = alt.via && alone ? alt.factor * this.c.ALONE : named ? alt.factor * this.c.TRANSLATED : alt.factor;
        total = Math.max(total, sum(values.map((v) => factor * v)));
        hit = true;
      }
    }
    if ([...terms.values()].some((t) => t.field === "name" && t.docs.has(d))) { total += this.c.NAME; hit = true; }
    return hit ? total : null;
  }

  async rankData(d) { return (await this.file(`rank-${Math.floor(d / this.c.RANK)}.json`))[d % this.c.RANK]; }

  async doc(d) { return (await this.file(`docs-${Math.floor(d / this.c.DOCS)}.json`))[d % this.c.DOCS]; }

  /* `typing`: the reader is still typing (the site's results as you type): the last word, unknown, may be the
     start of a word, and stands for the index forms starting with it (never for a spelling correction).
     A search runs with the files it has, noting those it lacks: each file a step needs stands as empty, the run
     goes on as far as what it has tells it what to ask next, then every file noted is fetched at once and the
     search runs again, until a run lacks nothing: its answer is the search's. A question takes a few round trips,
     not one per file (the words' shards, then their translations', postings, ..., the results' documents). A run
     is a view of the index (`Object.create`) with its own `wanted`: searches typed one over another share the
     files, not their notes. */
  search(text, limit = 10, typing = false, kind = null) {
    return this.runs((run) => run.answer(text, limit, typing, kind));
  }

  /* While the reader types: the files of the words typed whole (`text`, up to its last space: their lookups and
     postings), fetched before the search asks for them; never the rank data or the results' (the question is not
     finished), never an error (the search will say it). */
  async prefetch(text) {
    const ahead = async (run) => {
      const parsed = parseQuery(text, this.core.pattern);
      const langs = parsed.langs.length ? this.langs.filter((l) => parsed.langs.includes(l)) : this.langs;
      for (const slot of await run.slots(parsed, langs)) { await run.slotTerms(slot); }
    };
    try { await this.runs(ahead, PREFETCH_STEPS); } catch (err) { /* the search will say it */ }
  }

  /* `step(run)` run again, after fetching the files it lacked, until a run lacks none: that run's answer (after
     `most` rounds of fetches, undefined). */
  async runs(step, most = Infinity) {
    for (let round = 1; ; round++) {
      const run = Object.create(this, { wanted: { value: new Set() } });
      let found;
      try {
        found = await step(run);
      } catch (err) {
        if (err !== LACKING && !run.wanted.size) { throw err; }
      }
      if (!run.wanted.size) { return found; }
      await Promise.all([...run.wanted].map((name) => this.fetched(name)));
      if (round === most) { return undefined; }
    }
  }

  /* Stop a run that lacks files its next step reads through (a step run on stand-ins would ask for files the
     answer does not need). */
  ready() {
    if (this.wanted.size) { throw LACKING; }
  }

  async answer(text, limit, typing, kind) {
    const parsed = parseQuery(text, this.core.pattern);
    if (parsed.editions.length) {
      throw new SearchError("edition", { value: parsed.editions[0] }, "edition: searches another edition; use kb search --edition");
    }
    for (const l of parsed.langs) {
      if (!this.langs.includes(l)) {
        throw new SearchError("filter", { name: "lang", value: l, allowed: this.langs.join(", ") }, `unknown lang '${l}'; use one of ${this.langs.join(", ")}`);
      }
    }
    const langs = parsed.langs.length ? this.langs.filter((l) => parsed.langs.includes(l)) : this.langs;
    /* `kind` adds to the query's own `kind:` filters, as kb search --kind does: nothing is both `kind:rule` and a card */
    const kinds = (parsed.kinds.length ? KINDS.filter((k) => parsed.kinds.includes(k)) : KINDS).filter((k) => !kind || k === kind);
    const allowed = (d) => kinds.includes(this.core.kinds[d]) && this.core.langsOf[d].some((l) => langs.includes(l));
    if (parsed.number && kinds.includes("rule")) {
      const docs = await this.numbers(parsed, langs, allowed, limit);
      this.ready(); /* the numbers read before the words are looked up */
      if (docs.length) { return { results: await Promise.all(docs.map((d) => this.result(d, 0, [], [], langs))), corrected: null, total: docs.length }; }
    }
    let made = await this.slots(parsed, langs);
    const masked = await this.excluded(parsed.excluded, langs); /* its words' files asked with the query's */
    if (typing && made.length) { await this.unfinished(made[made.length - 1], langs); }
    if (made.some((s) => s.missing.length)) { this.ready(); } /* a word is missing only once its shards are read */
    let fixed = false;
    for (const s of made) { if (s.missing.length) { await this.correct(s, langs); fixed = fixed || s.fixed !== null; } }
    const corrected = fixed ? correctedQuery(parsed, made) : null;
    made = made.filter((s) => s.alts.length || s.names.length);
    if (!made.length) { return { results: [], corrected, total: 0 }; }
    const [terms, near] = [[], []];
    for (const s of made) { terms.push(await this.slotTerms(s)); near.push(await this.nearTerms(s)); }
    const weights = terms.map((t) => this.weight(t));
    this.ready();
    const scores = new Map();
    for (const d of new Set(terms.flatMap((t) => [...t.values()].flatMap((x) => [...x.docs.keys()])))) {
      if (!allowed(d) || masked.has(d)) { continue; }
      let total = null;
      for (let k = 0; k < made.length; k++) {
        const v = await this.slotScore(made[k], terms[k], d);
        if (v !== null) { total = (total || 0) + v; }
      }
      if (total !== null) { scores.set(d, total); }
    }
    this.ready(); /* the documents a phrase is looked for in */
    const ranked = [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const top = ranked.slice(0, this.c.TOP);
    const named = new Set(); /* the documents whose headwords hold a form asked, beyond the best TOP */
    for (const f of new Set(made.flatMap((s) => s.alts.filter((a) => !a.phrase).flatMap((a) => a.forms)))) {
      for (const d of ((await this.postings(f)).heads || [[]])[0]) { named.add(d); }
    }
    const beyond = ranked.slice(this.c.TOP).filter(([d]) => named.has(d)).slice(0, this.c.NAMED);
    top.push(...beyond);
    const base = this.rerank(top, made, terms, weights, named, near);
    for (const t of terms.flatMap((x) => [...x.values()])) { /* the snippets' words, read with the rank data */
      if (t.field.startsWith("body_") && !t.term.startsWith(EXACT)) { await this.wordsOf(t.field.slice(5), t.term); }
    }
    for (const h of base.slice(0, limit)) { await this.doc(h.d); } /* the results, most likely: read with the rank data */
    const translations = await this.translations(made);
    const refined = await this.refine(base, weights);
    this.ready();
    const results = await Promise.all(refined.slice(0, limit).map((h) => this.result(h.d, h.score, translations, terms, langs, h)));
    return { results, corrected, total: scores.size }; /* total: every document matched, before the re-rank */
  }

  /* The rule and everything under it, in rule order, and the rule a translation numbers so (kb.search.index). */
  async numbers(parsed, langs, allowed, limit) {
    const numbered = await this.file("numbers.json");
    const aside = new Set(numbered.aside);
    const numbers = Object.entries(numbered.numbers || {}).map(([d, n]) => [n, Number(d)]);
    const found = numbers.filter(([n, d]) => allowed(d) && descends(n, parsed.number));
    found.sort((a, b) => aside.has(a[1]) - aside.has(b[1]) || compare(sortKey(a[0]), sortKey(b[0])) || a[1] - b[1]);
    const docs = found.slice(0, limit).map(([, d]) => d);
    for (const [lang, mine] of Object.entries(this.core.numbering || {})) {
      const today = mine[parsed.number];
      if (!today || !langs.includes(lang)) { continue; }
      const there = numbers.filter(([n, d]) => n === today && !aside.has(d) && allowed(d) && !docs.includes(d)).map(([, d]) => d);
      docs.splice(parsed.numberLang === lang || (langs.length === 1 && langs[0] === lang) ? 0 : Math.min(1, docs.length), 0, ...there);
    }
    return docs.slice(0, limit);
  }

  /* Coverage, the word as typed and the kind (kb.search.rank.rerank, first step). */
  rerank(top, made, terms, weights, named, near) {
    const total = sum(weights) || 1;
    const base = [];
    for (const [d, score] of top) {
      const found = terms.map((t) => [...t.values()].filter((x) => x.docs.has(d)));
      const credit = found.map((f, k) => (f.length ? 1 : Math.min(this.c.CONCEPT_CREDIT, sum(near[k].filter((x) => x.docs.has(d)).map((x) => x.share)))));
      const share = sum(weights.map((w, k) => w * credit[k])) / total;
      if (made.every((s) => s.stop) && share < 1) { continue; }
      const exact = sum(weights.filter((w, k) => made[k].exact.some(([lang, t]) => terms[k].get(`body_${lang}\u0000${t}`).docs.has(d))));
      /* a word matching only the document's concept's name in a language it has no text in, not the query's, names
         nothing (kb.search.engine._forms) */
      const named = (x, k) => this.core.langsOf[d].includes(x.field.slice(5)) || made[k].lang === x.field.slice(5);
      const typed = found.map((f, k) => new Set(f.filter((x) => !x.via && x.field !== "name" && named(x, k)).flatMap((x) => x.words)));
      const through = found.map((f) => new Set(f.filter((x) => x.via && this.core.langsOf[d].includes(x.field.slice(5))).flatMap((x) => x.words)));
      const via = found.some((f) => f.length) && !found.some((f) => f.some((x) => !x.via));
      base.push({ d, found, typed, through, via, score: (score + this.c.EXACT_BONUS * exact) * share ** this.c.COVERAGE_POWER * this.c.BOOSTS[this.core.kinds[d]] });
    }
    base.sort((a, b) => b.score - a.score || a.d - b.d);
    return [...base.slice(0, this.c.RERANK), ...base.slice(this.c.RERANK).filter((h) => named.has(h.d))];
  }

  /* Headwords, ancestors' headings and citations (kb.search.rank.rerank, second step). */
  async refine(base, weights) {
    let cardNamed = false;
    for (const h of base) {
      [h.key, h.heads, h.sections, h.cites, h.names] = (await this.rankData(h.d)) || [null, [], [], [], []]; /* not read yet: a stand-in */
      const byHeads = this.headFactor(h.heads, h, weights, this.c.HEAD_BONUS);
      cardNamed = cardNamed || (this.core.kinds[h.d] === "card" && byHeads > 1);
      h.score *= Math.max(byHeads,
        this.headFactor(h.names, h, weights, this.c.HEAD_BONUS * this.c.NAME_SHARE), this.headFactor(h.sections, h, weights, this.c.SECTION_BONUS));
    }
    if (weights.length >= this.c.QUESTION_SLOTS && !cardNamed) { /* a question naming no card (kb.search.rank.rerank) */
      for (const h of base) { h.score *= own(this.c.QUESTION_KINDS, this.core.kinds[h.d]) ? this.c.QUESTION_KINDS[this.core.kinds[h.d]] : 1; }
    }
    const top = Math.max(0, ...base.map((h) => h.score));
    if (top > 0) {
      const citing = new Map();
      for (const h of base) { for (const c of h.cites) { citing.set(c, (citing.get(c) || 0) + h.score / top); } }
      for (const h of base) { if (!h.via) { h.score *= 1 + this.c.CITED_BONUS * Math.min(1, citing.get(h.key) || 0); } }
    }
    return base.sort((a, b) => b.score - a.score || a.d - b.d);
  }

  headFactor(heads, h, weights, bonus) {
    const total = sum(weights) || 1;
    let best = 1;
    for (const head of heads) {
      const terms = new Set(head);
      if (!terms.size) { continue; }
      const named = (sets) => weights.map((w, k) => [w, [...sets[k]].filter((t) => terms.has(t))]).filter(([, f]) => f.length);
      const typed = named(h.typed);
      for (const [found, factor] of [[typed, 1], [typed.concat(named(h.through)), this.c.THROUGH]]) {
        const share = new Set(found.flatMap(([, f]) => f)).size / terms.size;
        if (found.length && sum(found.map(([w]) => w)) >= this.c.HEAD_SHARE * total && (share === 1 || this.core.kinds[h.d] !== "card")) {
          best = Math.max(best, 1 + bonus * factor * share);
        }
      }
    }
    return best;
  }

  async excluded(items, langs) {
    const docs = new Set();
    for (const item of items) {
      const words = queryTokens(item.text).map(([, w]) => w);
      if (!(item.phrase && words.length > 1)) { /* its translations too (kb.search.searcher._excluded) */
        const alone = { number: null, numberLang: null, groups: [[item]], excluded: [], langs: [], kinds: [], editions: [] };
        for (const slot of await this.slots(alone, langs)) {
          for (const a of slot.alts) {
            if (a.via && !a.phrase) { for (const d of ((await this.postings(a.forms[0]))[`body_${a.lang}`] || [[]])[0]) { docs.add(d); } }
          }
        }
      }
      for (const lang of langs) {
        const field = `body_${lang}`;
        const forms = [];
        for (const w of words) { forms.push(this.stops[lang].has(w) ? [STOP + w] : await this.forms(lang, w)); }
        if (item.phrase && words.length > 1) {
          if (!forms.every((f) => f.length)) { continue; }
          const lists = [];
          for (const f of forms) { if (!f[0].startsWith(STOP)) { lists.push(new Set(((await this.postings(f[0]))[field] || [[]])[0])); } }
          for (const d of lists[0] || []) { if (lists.every((l) => l.has(d)) && await this.hasPhrase(d, lang, forms.map((f) => f[0]))) { docs.add(d); } }
        } else {
          for (const f of forms.flat()) { for (const d of ((await this.postings(f))[field] || [[]])[0]) { docs.add(d); } }
        }
      }
    }
    return docs;
  }

  /* Whether one of a document's texts holds index forms in a row (stop words included), as Whoosh's Phrase finds
     (the texts are parts of one field: a phrase never runs from one into the next). */
  async hasPhrase(d, lang, forms) {
    const [words, pattern] = await this.phrase(lang, forms);
    if (!pattern) { return false; }
    const row = await this.doc(d);
    if (!row) { return false; } /* not read yet (`search`) */
    const [, , titles, , texts, , ctx] = row;
    const fits = (j, [kind, w]) => words[j].has(w) && (forms[j].startsWith(STOP) === isStop(w, kind, this.stops[lang]));
    for (const text of [titles[lang] || "", texts[lang] || "", ctx[lang] || ""]) {
      const plain = fold(text.replace(REFERENCE, " ")).replace(/−/g, "-");
      if (!pattern.test(plain)) { continue; } /* the first cut: most candidates stop here */
      const seq = queryTokens(plain);
      for (let i = 0; i + forms.length <= seq.length; i++) { if (forms.every((f, j) => fits(j, seq[i + j]))) { return true; } }
    }
    return false;
  }

  /* The words each of a phrase's index forms is held as, and a pattern of them in a row that every text holding
     the phrase matches (no word character between consecutive tokens), null when a form is held by no word; worked
     out once per phrase (Engine._phrase). */
  async phrase(lang, forms) {
    const key = JSON.stringify([lang, forms]);
    if (!this.phrases_.has(key)) {
      if (this.phrases_.size >= 1024) { this.phrases_.clear(); }
      const words = await Promise.all(forms.map(async (f) => new Set(f.startsWith(STOP) ? [f.slice(1)] : await this.wordsOf(lang, f))));
      const escape = (w) => w.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"); /* the syntax characters: no other escape in "u" */
      const each = words.map((held) => `(?:${[...held].map(escape).join("|")})`);
      const pattern = words.every((held) => held.size) ? new RegExp(each.join(String.raw`[^\p{L}\p{N}_]*`), "u") : null;
      if (this.wanted.size) { return [words, pattern]; } /* made from stand-ins: not kept */
      this.phrases_.set(key, [words, pattern]);
    }
    return this.phrases_.get(key);
  }

  /* A result: kind, id, number, title, page, languages (matched ones first), snippets, translations it was found
     through when it matches no word as typed (kb.search.index.SearchIndex._result). */
  async result(d, score, translations, terms, langs, hit = null) {
    const row = await this.doc(d);
    if (!row) { return null; } /* not read yet (`search`) */
    const [key, url, titles, names, texts, editions, ctx, numbers, number, unofficial, headingNamed] = row;
    const kind = this.core.kinds[d];
    const docLangs = this.core.langsOf[d];
    const every = terms.flatMap((t) => [...t.values()]).filter((t) => t.field !== "name");
    const held = (l, typed) => every.some((t) => t.field === `body_${l}` && t.docs.has(d) && (!typed || !t.via));
    const matched = [...langs.filter((l) => held(l, true)), ...langs.filter((l) => held(l, false) && !held(l, true))];
    const order = [...new Set([...matched, ...langs.filter((l) => docLangs.includes(l)), ...docLangs])];
    const snippets = {};
    for (const lang of docLangs) {
      const forms = new Set(every.filter((t) => t.field === `body_${lang}`).map((t) => t.term));
      snippets[lang] = await this.snippet(texts[lang] || titles[lang] || "", matched.includes(lang) ? forms : new Set(), lang);
    }
    const shown = kind === "card" ? names || {} : {};
    const heading = kind === "rule" ? Object.fromEntries(Object.entries(ctx).map(([l, c]) => [l, c.split("\n")[0]])) : {};
    let title = "", titleLang = ""; /* an untitled rule: its nearest heading */
    for (const map of [shown, titles, names || {}, heading]) {
      for (const l of order) { if (!title && map[l]) { title = map[l]; titleLang = l; } }
    }
    const named = terms.some((t) => [...t.values()].some((x) => x.field === "name" && x.docs.has(d)));
    const via = hit && hit.found.some((f) => f.length) && !hit.typed.some((t) => t.size) && !named;
    const translated = via ? translatedBy(translations, hit.found) : [];
    return { kind, id: key, number, title, titleLang, titles, names, named: unofficial || {}, heading_named: headingNamed || {}, url, langs: order, snippets, score, editions, numbers, translated };
  }

  /* Per slot, its translations, each with the index terms its every target may be held as (its words' first forms,
     and the words together): once per query (Engine._translations). */
  async translations(made) {
    const found = [];
    for (const slot of made) {
      const mine = [];
      for (const [source, target, typed, targets] of slot.translated) {
        const forms = [];
        for (const x of targets) {
          const words = queryTokens(x).filter(([kind]) => kind === "word").map(([, w]) => w);
          const held = new Set([words.join(" ")]);
          for (const w of words) { const first = (await this.forms(target, w)).slice(0, 1); held.add(first.length ? first[0] : w); }
          forms.push(held);
        }
        mine.push([source, target, typed, targets, forms]);
      }
      found.push(mine);
    }
    return found;
  }

  /* The text around its first matched words, as parts {text, mark}; the start of the text when none matched. */
  async snippet(text, forms, lang) {
    const flat = text.replace(/\n/g, this.c.BREAK);
    const marks = [];
    const words = new Set();
    for (const f of forms) { for (const w of f.startsWith(EXACT) ? [f.slice(1)] : await this.wordsOf(lang, f)) { words.add(w); } }
    for (const m of words.size ? flat.matchAll(TOKEN) : []) {
      const [[kind, w]] = queryTokens(m[0]).length ? queryTokens(m[0]) : [["word", ""]];
      if (!isStop(w, kind, this.stops[lang]) && words.has(w)) { marks.push([m.index, m.index + m[0].length]); }
    }
    const start = marks.length ? Math.max(0, flat.lastIndexOf(" ", Math.max(0, marks[0][0] - this.c.LEAD)) + 1) : 0;
    const end = Math.min(flat.length, start + this.c.SNIPPET);
    const parts = start ? [{ text: "…", mark: false }] : [];
    let pos = start;
    for (const [a, b] of marks) {
      if (a < pos || b > end) { continue; }
      parts.push({ text: flat.slice(pos, a), mark: false }, { text: flat.slice(a, b), mark: true });
      pos = b;
    }
    parts.push({ text: flat.slice(pos, end) + (end < flat.length ? "…" : ""), mark: false });
    return parts;
  }
}

/* kb.search.analysis.REFERENCE: the words of a cross-reference, not indexed. */
const REFERENCE = /\b(?:(?:see|cf|voir)\W{1,3})?(?:rules?|r[eè]gles?|sections?)\s+(?=\d)/giu;

/* A run of units as typed: an item cut into several units shown whole when the run holds them all
   (kb.search.lookup.typed_text: « mal d'invocation », not « mal d invocation »). */
function typedText(run) {
  const shown = [];
  run.forEach((unit, k) => {
    const whole = unit.whole && run.filter((u) => u.item === unit.item).length === unit.size;
    if (!whole) { shown.push(unit.typed); } else if (k === 0 || run[k - 1].item !== unit.item) { shown.push(unit.whole); }
  });
  return shown.join(" ");
}

function correctedQuery(parsed, made) {
  const fixes = new Map(made.filter((s) => s.fixed).map((s) => [s.text, s.fixed]));
  return parsed.groups.flat().flatMap((i) => queryTokens(i.text).map(([, w]) => fixes.get(w) || w)).join(" ");
}

/* The translations a result found only through them was found by: per slot, those whose index terms it holds among
   its translated terms; a paraphrase table's wordings when a translation of the same words was kept (the way to it)
   (kb.search.engine._translated). */
function translatedBy(translations, found) {
  const shown = [];
  for (let k = 0; k < translations.length && k < found.length; k++) {
    const held = new Set(found[k].filter((t) => t.via).map((t) => t.term));
    const each = translations[k].map(([source, target, typed, targets, forms]) =>
      [source, target, typed, targets, targets.filter((x, j) => [...forms[j]].some((f) => held.has(f)))]);
    const through = new Set(each.filter(([, , , , kept]) => kept.length).map(([, , typed]) => typed));
    for (const [source, target, typed, targets, kept] of each) {
      if (kept.length || (source === target && through.has(typed))) { shown.push([source, target, typed, kept.length ? kept : targets]); }
    }
  }
  return shown;
}
