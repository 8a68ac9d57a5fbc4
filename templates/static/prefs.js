/* Apply the remembered language choice before the page paints (no flash). */
(function () {
  var show = "both";
  try { show = localStorage.getItem("kb-show") || "both"; } catch (e) { /* storage may be disabled */ }
  document.documentElement.setAttribute("data-show", show);
})();
