/* Opened from disk (file://), the search page cannot load its index (browsers refuse modules and fetch there):
   say so instead of showing an empty page. A classic script, since the search module itself never runs. */
(function () {
  "use strict";
  if (location.protocol === "file:") {
    var note = document.getElementById("search-file");
    if (note) { note.hidden = false; }
  }
})();
