/* Text columns switch (remembered), interface language switch (remembered, keeps the query and the place),
   reference previews on hover and focus, a row's link copied when its number is clicked, `/` to search, the phone
   menu, and the number box's choice when a typed number names a translation's own rule and another rule today.
   No framework. */
(function () {
  "use strict";
  var html = document.documentElement;
  var script = document.currentScript && document.currentScript.src;

  function remember(key, value) {
    try { localStorage.setItem(key, value); } catch (e) { /* storage may be disabled */ }
  }

  function setShow(value) {
    html.setAttribute("data-show", value);
    remember("kb-show", value);
    document.querySelectorAll(".langswitch button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.show === value));
    });
  }

  function initSwitch() {
    var current = html.getAttribute("data-show") || "both";
    var buttons = document.querySelectorAll(".langswitch button");
    var known = Array.prototype.some.call(buttons, function (b) { return b.dataset.show === current; });
    setShow(known ? current : "both");
    buttons.forEach(function (b) {
      b.addEventListener("click", function () { setShow(b.dataset.show); });
    });
    document.querySelectorAll("a.ui-switch").forEach(function (a) {
      a.addEventListener("click", function () {
        remember("kb-ui", a.dataset.ui);
        a.setAttribute("href", a.getAttribute("href").split(/[?#]/)[0] + location.search + place());
      });
    });
  }

  /* Where the reader is, for the same page in the other interface: the address's anchor while its target is on
     screen, else the row (glossary entry, note, heading) nearest the top of the screen once scrolled. */
  var PLACES = "main .row[id], main .entry[id], main .letter[id], main .note[id], main h2[id], main h3[id]";
  function place() {
    var header = document.querySelector("header.top");
    var top = header ? header.getBoundingClientRect().bottom : 0;
    var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) {
      var r = target.getBoundingClientRect();
      if (r.bottom > top && r.top < window.innerHeight) { return location.hash; }
    }
    if (window.scrollY < 10) { return location.hash; }
    var places = document.querySelectorAll(PLACES);
    for (var i = 0; i < places.length; i++) {
      if (places[i].getBoundingClientRect().bottom > top + 40) { return "#" + places[i].id; }
    }
    return location.hash;
  }

  var tip = null;
  var owner = null;

  function previewFor(link) {
    var id = link.getAttribute("aria-describedby");
    if (!id) {
      var hash = (link.getAttribute("href") || "").split("#")[1];
      var scope = link.closest("[lang]");
      if (!hash || !scope) { return null; }
      id = "pv-" + scope.getAttribute("lang") + "-" + decodeURIComponent(hash);
    }
    return document.getElementById(id);
  }

  function show(link) {
    var source = previewFor(link);
    if (!source || !tip) { return; }
    owner = link;
    tip.textContent = "";
    tip.appendChild(source.cloneNode(true)).removeAttribute("id");
    tip.setAttribute("lang", source.getAttribute("lang") || "");
    tip.hidden = false;
    var r = link.getBoundingClientRect();
    var width = Math.min(420, window.innerWidth - 16);
    tip.style.width = width + "px";
    var left = Math.max(8, Math.min(r.left + window.scrollX, window.scrollX + window.innerWidth - width - 8));
    tip.style.left = left + "px";
    var below = window.innerHeight - r.bottom;  /* no room below the link: above it, when there is more room there */
    var above = tip.offsetHeight + 12 > below && r.top > below;
    tip.style.top = ((above ? r.top - tip.offsetHeight - 6 : r.bottom + 6) + window.scrollY) + "px";
  }

  function hide() {
    if (tip) { tip.hidden = true; }
    owner = null;
  }

  function isRef(el) {
    return el && el.matches && el.matches("a.ref, .prose a[href*='rules/'], .ruling a[href*='rules/']");
  }

  function initPreviews() {
    tip = document.getElementById("preview");
    document.addEventListener("mouseover", function (e) {
      var a = e.target.closest && e.target.closest("a");
      if (isRef(a)) { show(a); } else if (owner && !(tip && tip.contains(e.target))) { hide(); }
    });
    document.addEventListener("focusin", function (e) { if (isRef(e.target)) { show(e.target); } else { hide(); } });
    document.addEventListener("focusout", function (e) { if (e.target === owner) { hide(); } });
    document.addEventListener("keydown", function (e) { if (e.key === "Escape") { hide(); } });
  }

  /* Clicking a row's number goes to the row, as any link, and copies the row's address. */
  function initCopy() {
    var toast = document.getElementById("toast");
    var words = document.body.dataset.copied || "{n}";
    var timer = null;
    document.addEventListener("click", function (e) {
      var a = e.target.closest && e.target.closest(".row > a.num, .row a.own-row-num");
      if (!a || !navigator.clipboard || e.ctrlKey || e.metaKey || e.shiftKey) { return; }
      navigator.clipboard.writeText(a.href).then(function () {
        if (!toast) { return; }
        toast.textContent = words.replace("{n}", a.textContent);
        toast.classList.add("shown");
        clearTimeout(timer);
        timer = setTimeout(function () { toast.classList.remove("shown"); }, 2500);
      }, function () { /* no clipboard permission: the link still works */ });
    });
  }

  /* `/` goes to the search box, unless the reader is typing somewhere. */
  function initSlash() {
    document.addEventListener("keydown", function (e) {
      if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) { return; }
      var el = document.activeElement;
      if (el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName))) { return; }
      var box = document.getElementById("q") || document.getElementById("q-top");
      if (box) { e.preventDefault(); box.focus(); box.select(); }
    });
  }

  function initMenu() {
    var button = document.querySelector(".menu-button");
    var top = document.querySelector(".top");
    if (!button || !top) { return; }
    button.addEventListener("click", function () {
      var open = button.getAttribute("aria-expanded") !== "true";
      button.setAttribute("aria-expanded", String(open));
      top.classList.toggle("open", open);
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && top.classList.contains("open")) {
        button.setAttribute("aria-expanded", "false");
        top.classList.remove("open");
        button.focus();
      }
    });
  }

  /* The glossary's filter: the terms whose headword, aliases, printed-card name or words hold what is typed
     (case, accents and apostrophes aside). */
  function fold(text) {
    return text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[’‘ʼ]/g, "'");
  }

  function initGlossaryFilter() {
    var box = document.querySelector(".gloss-find");
    var input = document.getElementById("gloss-q"), out = document.getElementById("gloss-n");
    if (!box || !input) { return; }
    var entries = Array.prototype.map.call(document.querySelectorAll(".entry[data-find]"), function (e) {
      return [e, fold(e.dataset.find)];
    });
    box.hidden = false;
    input.addEventListener("input", function () {
      var q = fold(input.value.trim()), n = 0;
      entries.forEach(function (pair) {
        var hit = !q || pair[1].indexOf(q) >= 0;
        pair[0].hidden = !hit;
        n += hit ? 1 : 0;
      });
      document.querySelectorAll(".letter-group").forEach(function (group) {  /* a letter with no term found: gone */
        group.hidden = !group.querySelector(".entry:not([hidden])");
      });
      document.querySelectorAll("nav.az").forEach(function (nav) { nav.hidden = Boolean(q); });  /* the terms found
        come right under the box, not below the letters (a phone's whole first screen) */
      var one = n === 1 || (n === 0 && document.documentElement.lang === "fr");  /* French: 0 and 1 take the singular */
      out.textContent = !q ? "" : (one ? out.dataset.one : out.dataset.words || "{n}").replace("{n}", n);
    });
  }

  /* On a phone the search boxes are narrow: their short placeholders, never one cut off. */
  function initPlaceholder() {
    if (!window.matchMedia) { return; }
    var narrow = window.matchMedia("(max-width: 700px)");
    document.querySelectorAll("input[data-short]").forEach(function (input) {
      var long = input.placeholder;
      function fit() { input.placeholder = narrow.matches ? input.dataset.short : long; }
      fit();
      if (narrow.addEventListener) { narrow.addEventListener("change", fit); }
    });
  }

  /* On a phone the list at the top of a long rule or an FAQ, and an FAQ's particulars, start folded: the text
     comes first. */
  function initOnPage() {
    if (window.matchMedia && window.matchMedia("(max-width: 700px)").matches) {
      document.querySelectorAll(".onpage details, .faq-toc details, details.faq-meta-box").forEach(function (d) { d.open = false; });
    }
  }

  /* Where an outline stays in view beside the text (a wide screen), it marks the part being read and keeps it in
     its own view. */
  function initSpy() {
    var nav = document.querySelector("nav.onpage, nav.faq-toc");
    if (!nav) { return; }
    var links = [], targets = [];  /* each link of the outline whose target is on the page, and that target */
    nav.querySelectorAll("a[href^='#']").forEach(function (a) {
      var target = document.getElementById(decodeURIComponent(a.getAttribute("href").slice(1)));
      if (target) { links.push(a); targets.push(target); }
    });
    var current = null, queued = false;
    function mark() {
      queued = false;
      if (getComputedStyle(nav).position !== "sticky") { return; }
      var header = (document.querySelector("header.top") || { offsetHeight: 0 }).offsetHeight, found = null;
      var line = header + (window.innerHeight - header) / 4;  /* a part is being read once it reaches this line */
      for (var i = 0; i < targets.length; i++) {
        if (targets[i].getBoundingClientRect().top > line) { break; }
        found = links[i];
      }
      if (found === current) { return; }
      if (current) { current.removeAttribute("aria-current"); }
      current = found;
      if (!found) { return; }
      found.setAttribute("aria-current", "location");
      var top = found.getBoundingClientRect().top - nav.getBoundingClientRect().top + nav.scrollTop;  /* its own view */
      var bottom = top + found.offsetHeight;
      if (top < nav.scrollTop || bottom > nav.scrollTop + nav.clientHeight) { nav.scrollTop = top - nav.clientHeight / 3; }
    }
    window.addEventListener("scroll", function () { if (!queued) { queued = true; requestAnimationFrame(mark); } }, { passive: true });
    mark();
  }

  /* A changes page's "open all" and "close all": every diff of the page at once (the tools need JavaScript). */
  function initOpenAll() {
    var tools = document.querySelector(".changes-tools");
    if (!tools) { return; }
    tools.hidden = false;
    tools.querySelectorAll("button[data-details]").forEach(function (b) {
      b.addEventListener("click", function () {
        var open = b.getAttribute("data-details") === "open";
        document.querySelectorAll(".change-section details").forEach(function (d) { d.open = open; });
      });
    });
  }

  /* A long page's "outline" button: to the outline, opened (on a phone it starts folded). */
  function initOutline() {
    document.querySelectorAll("a.to-outline").forEach(function (a) {
      a.addEventListener("click", function () {
        var target = document.getElementById(a.getAttribute("href").slice(1));
        var details = target && target.closest("details");
        if (details) { details.open = true; }
      });
    });
  }

  /* A changes page's filters: one section, one rule and its subrules, and the changes only of pronouns or of
     references (hidden until asked for, as `kb diff` lists them only with --all). */
  function initChangeFilter() {
    var form = document.querySelector("form.change-filter");
    if (!form) { return; }
    form.hidden = false;
    var items = Array.prototype.slice.call(document.querySelectorAll("li.change[data-n]"));
    function under(number, rule) {
      if (number === rule) { return true; }
      if (number.indexOf(rule) !== 0) { return false; }
      var rest = number.slice(rule.length);
      return rule.indexOf(".") < 0 ? rest.charAt(0) === "." : /^[a-z]+$/.test(rest);
    }
    function apply() {
      var section = form.elements.section.value, rule = form.elements.rule.value.trim().replace(/\.$/, "");
      var minor = form.elements.minor.checked, shown = 0;
      items.forEach(function (li) {
        var numbers = li.getAttribute("data-n").split(" ");
        var ok = (minor || !li.hasAttribute("data-minor")) &&
          (!section || numbers.some(function (n) { return n.charAt(0) === section; })) &&
          (!rule || numbers.some(function (n) { return under(n, rule); }));
        li.hidden = !ok;
        if (ok) { shown++; }
      });
      document.querySelectorAll("ol.changes").forEach(function (ol) {
        var any = ol.querySelector("li.change:not([hidden])") !== null;
        ol.hidden = !any;
        var head = ol.previousElementSibling;
        if (head && head.classList.contains("change-rule")) { head.hidden = !any; }
      });
      document.querySelectorAll("section.change-section, #references").forEach(function (s) {
        var box = s.tagName === "SECTION" ? s : s.closest("section");
        if (box) { box.hidden = box.querySelector("li.change:not([hidden])") === null; }
      });
      form.elements.shown.value = form.getAttribute("data-shown").replace("{n}", shown);
    }
    form.addEventListener("input", apply);
    form.addEventListener("submit", function (e) { e.preventDefault(); });
    apply();
  }

  /* A typed number that a translation numbers otherwise (French 120.4, today's 121.4; today's 120.4 is another
     rule): offer both, the interface's reading first (kb/site/numbering.py ships the map in jump.json); a number
     only today's rules have: straight to its rule. */
  var jumps = null;
  function loaded(href) {
    return new Promise(function (ok, fail) {
      var el = document.createElement("script");
      el.src = href;
      el.onload = ok;
      el.onerror = fail;
      document.head.appendChild(el);
    });
  }
  function jumpMap() {
    if (!jumps) {
      /* Opened from disk (file://), fetch is refused: the same map as a classic script (jump.js). */
      var map = location.protocol === "file:"
        ? loaded(new URL("../jump.js", script).href).then(function () { return globalThis.kbJump; })
        : fetch(new URL("../jump.json", script).href).then(function (r) { return r.json(); });
      var text = globalThis.kbText ? null : loaded(new URL("kbtext.js", script).href);
      jumps = Promise.all([map, text]).then(function (found) {
        var copy = Object.assign({}, found[0]);
        copy.numbers = globalThis.kbText.jumpNumbers(found[0].numbers);
        return copy;
      }).catch(function () { return {}; });
    }
    return jumps;
  }

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (m, k) { return values[k] !== undefined ? values[k] : m; });
  }

  function choices(map, num, ui) {
    var site = new URL("../", script).href, words = (map.words || {})[ui] || {}, found = [];
    Object.keys(map.own || {}).forEach(function (lang) {
      var own = map.own[lang][num];
      if (!own || !Object.prototype.hasOwnProperty.call(map.own[lang], num)) { return; }
      var year = (map.numbering || {})[lang] || "";
      var key = own.row ? (year ? "jump_own" : "jump_own_undated") : "jump_own_none";
      var label = fill(words[key] || "{n}", { n: num, lang: (words.langs || {})[lang] || lang, year: year,
        today: own.row });
      found.push({ lang: lang, label: label, href: site + ui + "/" + own.path, own: true,
        start: own.start || "", startLang: lang });
    });
    var today = map.numbers && Object.prototype.hasOwnProperty.call(map.numbers, num) ? map.numbers[num] : null;
    if (today) {
      var title = ((map.titles || {})[num] || {})[ui] || ["", ui];
      var start = (map.starts || {})[num] || ["", ui];
      var item = { label: fill(words.jump_today || "{n}", { n: num, title: "\u0000" }), title: title[0],
        titleLang: title[1], href: site + ui + "/" + today, start: start[0], startLang: start[1] };
      if (found.some(function (f) { return f.lang === ui; })) { found.push(item); } else { found.unshift(item); }
    }
    return found;
  }

  function tagged(tag, text, lang, ui, cls) {
    var el = document.createElement(tag);
    el.textContent = text;
    if (lang && lang !== ui) { el.lang = lang; }
    if (cls) { el.className = cls; }
    return el;
  }

  function showChoice(form, list, num, words, ui) {
    var old = document.getElementById("jump-choice");
    if (old) { old.remove(); }
    var box = document.createElement("div");
    box.id = "jump-choice";
    box.className = "jump-choice";
    box.setAttribute("role", "group");
    var head = document.createElement("p");
    head.className = "jump-choice-h";
    head.id = "jump-choice-h";
    head.textContent = fill(words.jump_choice || "{n}", { n: num });
    box.setAttribute("aria-labelledby", head.id);
    var ul = document.createElement("ul");
    list.forEach(function (c) {
      var li = document.createElement("li"), a = document.createElement("a");
      a.href = c.href;
      var parts = c.label.split("\u0000");  /* the title in its own language, tagged so */
      a.append(parts[0]);
      if (parts.length > 1) { a.append(tagged("span", c.title, c.titleLang, ui), parts[1]); }
      if (c.own) { a.className = "jump-own"; }
      if (c.start) { a.append(tagged("span", c.start, c.startLang, ui, "jump-start")); }
      li.appendChild(a);
      ul.appendChild(li);
    });
    box.append(head, ul);
    form.after(box);
    box.addEventListener("keydown", function (e) {
      if (e.key === "Escape") { box.remove(); form.querySelector("input").focus(); }
    });
    ul.querySelector("a").focus();
  }

  function initNumberBox() {
    var form = document.querySelector("header .search-form");
    var input = form && form.querySelector("input");
    if (!form || !input || !script) { return; }
    var ui = document.body.dataset.ui || html.lang || "en";
    var choosing = false;
    form.addEventListener("submit", function (e) {
      if (choosing) { return; }
      e.preventDefault();
      var text = input.value;
      jumpMap().then(function (map) {
        var num = map.pattern ? globalThis.kbText.ruleNumber(text, map.pattern) : null;
        var list = num ? choices(map, num, ui) : [];
        if (list.length > 1) { showChoice(form, list, num, (map.words || {})[ui] || {}, ui); return; }
        if (list.length === 1) { location.assign(list[0].href); return; }
        choosing = true;
        form.submit();
      }, function () { choosing = true; form.submit(); });
    });
  }

  /* The words a search found in this page, marked where it opens (search.js passes them as `?found=`, each as the
     result's snippet marked it): in the rule or entry its address points to and its subrules, else in the whole page. */
  function initFound() {
    var found = new URLSearchParams(location.search).getAll("found").map(function (w) { return w.trim(); })
      .filter(function (w) { return w.length > 1; }).slice(0, 20);
    if (!found.length) { return; }
    var id = location.hash ? decodeURIComponent(location.hash.slice(1)) : "";
    var target = id && document.getElementById(id);
    /* a rule's row and its subrules' rows (702.19, then 702.19a…), else the page */
    var scopes = target ? Array.prototype.filter.call(document.querySelectorAll("[id]"), function (el) {
      var rest = el.id.slice(id.length);
      return el.id === id || (el.id.indexOf(id) === 0 && /^[a-z.]/.test(rest) && /\d/.test(id));
    }) : [document.querySelector("main")].filter(Boolean);
    if (!scopes.length) { return; }
    var quoted = found.map(function (w) { return w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); });
    var pattern = new RegExp("(?<![\\p{L}\\p{N}])(?:" + quoted.join("|") + ")(?![\\p{L}\\p{N}])", "giu");
    var nodes = [];
    scopes.forEach(function (scope) {
      var walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT, {
        acceptNode: function (node) {
          return node.parentElement.closest("script, style, mark, button, summary, .lex-mark") ?
            NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT;
        }
      });
      while (walker.nextNode()) { nodes.push(walker.currentNode); }
    });
    nodes.forEach(function (node) {
      var text = node.nodeValue, pos = 0, parts = [], m;
      pattern.lastIndex = 0;
      while ((m = pattern.exec(text)) !== null) {
        parts.push(text.slice(pos, m.index));
        var mark = document.createElement("mark");
        mark.className = "found";
        mark.textContent = m[0];
        parts.push(mark);
        pos = m.index + m[0].length;
      }
      if (!parts.length) { return; }
      parts.push(text.slice(pos));
      node.replaceWith.apply(node, parts);
    });
  }

  function init() {
    initFound();
    initSwitch(); initPreviews(); initCopy(); initSlash(); initMenu(); initOnPage(); initOpenAll(); initOutline();
    initChangeFilter(); initNumberBox();
    initPlaceholder(); initGlossaryFilter(); initSpy();
  }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
