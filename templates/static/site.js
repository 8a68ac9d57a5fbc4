/* Text columns switch (remembered), interface language switch (remembered, keeps the anchor), reference previews
   on hover and focus, a row's link copied when its number is clicked, `/` to search, the phone menu. No framework. */
(function () {
  "use strict";
  var html = document.documentElement;

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
        if (location.hash) { a.setAttribute("href", a.getAttribute("href").split("#")[0] + location.hash); }
      });
    });
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
    tip.style.top = (r.bottom + window.scrollY + 6) + "px";
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
      var a = e.target.closest && e.target.closest(".row > a.num");
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

  /* On a phone the list at the top of a long rule starts folded: the text comes first. */
  function initOnPage() {
    if (window.matchMedia && window.matchMedia("(max-width: 700px)").matches) {
      document.querySelectorAll(".onpage details").forEach(function (d) { d.open = false; });
    }
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

  function init() { initSwitch(); initPreviews(); initCopy(); initSlash(); initMenu(); initOnPage(); initOpenAll(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
