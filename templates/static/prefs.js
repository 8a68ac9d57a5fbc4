/* Before the page paints: the remembered text columns, a "js" class for styles that need script, and on the
   root page the move to the interface tree the reader chose last (else the browser's language). */
(function () {
  "use strict";
  var html = document.documentElement;
  html.className += " js";
  function stored(key) {
    try { return localStorage.getItem(key); } catch (e) { return null; /* storage may be disabled */ }
  }
  html.setAttribute("data-show", stored("kb-show") || "both");
  var choose = html.getAttribute("data-choose");
  if (choose) {
    var langs = choose.split(" ");
    var wanted = [stored("kb-ui")].concat(Array.prototype.map.call(
      navigator.languages || [navigator.language || ""], function (l) { return String(l).slice(0, 2).toLowerCase(); }));
    var ui = wanted.filter(function (l) { return langs.indexOf(l) >= 0; })[0] || langs[0];
    location.replace(ui + "/index.html" + location.search + location.hash);
  }
})();
