/* Text folding and typed rule numbers, as kb's Python does them (kb/sources/text.py, kb/model/numbers.py).
   The rule-number pattern itself comes from the site's jump.json (`pattern`), generated from Python;
   tests/test_numbers.py runs this script in Node against the same cases as the Python functions.
   A classic script setting `globalThis.kbText`, not a module: site.js loads it with a script element, which a
   page opened from disk (file://) allows where it refuses modules; search.js imports it for that effect. */
(function (root) {
"use strict";

const APOSTROPHES = /[’‘ʼ`´′']/g;
const SPACES = /[\u00a0\u202f\u2007\u2009\t ]+/g;

/* Fold for matching: one apostrophe, plain spaces, no accents, ligatures spelt out, lower case. */
function fold(text) {
  return String(text).replace(APOSTROPHES, "'").replace(SPACES, " ")
    .replace(/æ/g, "ae").replace(/Æ/g, "AE").replace(/œ/g, "oe").replace(/Œ/g, "OE")
    .normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/* Fold and split elisions (`l’Étape` -> `l etape`), as the search box reads text. */
function searchFold(text) {
  return fold(text).replace(/'/g, " ");
}

/* The canonical rule number typed in `text` (`règle 703.4K.` -> `703.4k`, `(See rule 702,19)` -> `702.19`), or null. */
function ruleNumber(text, pattern) {
  const m = new RegExp(pattern, "i").exec(String(text));
  return m ? m[1].replace(/\.$/, "").replace(",", ".").toLowerCase() : null;
}

/* Rule number -> page and anchor, from jump.json's `numbers` (`{pages: {page: [numbers]}, bare: {number: page}}`,
   kb.site.pages.jump_map). */
function jumpNumbers(encoded) {
  const found = Object.assign(Object.create(null), encoded.bare);
  for (const [path, numbers] of Object.entries(encoded.pages)) { for (const n of numbers) { found[n] = `${path}#${n}`; } }
  return found;
}

root.kbText = Object.freeze({ fold: fold, searchFold: searchFold, ruleNumber: ruleNumber, jumpNumbers: jumpNumbers });
})(globalThis);
