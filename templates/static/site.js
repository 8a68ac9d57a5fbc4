/* Language switch (remembered), reference previews on hover and focus, permalink copy. No framework. */
(function () {
  "use strict";
  var html = document.documentElement;

  function setShow(value) {
    html.setAttribute("data-show", value);
    try { localStorage.setItem("kb-show", value); } catch (e) { /* ignore */ }
    document.querySelectorAll(".langswitch button").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.dataset.show === value));
    });
  }

  function initSwitch() {
    var current = html.getAttribute("data-show") || "both";
    var known = Array.prototype.some.call(document.querySelectorAll(".langswitch button"), function (b) {
      return b.dataset.show === current;
    });
    setShow(known ? current : "both");
    document.querySelectorAll(".langswitch button").forEach(function (b) {
      b.addEventListener("click", function () { setShow(b.dataset.show); });
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

  function initCopy() {
    if (!navigator.clipboard) { return; }
    document.querySelectorAll(".row > .cell:not(.gap) .num .permalink").forEach(function (a) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "copy";
      b.textContent = "¶";
      b.title = "Copier le lien · Copy link";
      b.setAttribute("aria-label", "Copier le lien · Copy link " + a.textContent);
      b.addEventListener("click", function () {
        navigator.clipboard.writeText(a.href).then(function () { b.textContent = "✓"; });
      });
      a.after(b);
    });
  }

  function init() { initSwitch(); initPreviews(); initCopy(); }
  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", init); } else { init(); }
})();
