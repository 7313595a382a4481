// Sortable tables and, on the exported (static) site, case-list filtering in the browser. No build step.
(function () {
  "use strict";
  function cellValue(row, i, type) {
    var cell = row.cells[i];
    if (!cell) return type === "num" ? -Infinity : "";
    var v = cell.getAttribute("data-sort");
    if (v === null) v = cell.textContent.trim();
    if (type === "num") { var x = parseFloat(v); return isNaN(x) ? -Infinity : x; }
    return v;
  }
  function sortBy(table, th) {
    var i = Array.prototype.indexOf.call(th.parentNode.children, th);
    var type = th.getAttribute("data-type") || "text";
    var asc = th.getAttribute("aria-sort") !== "ascending";
    Array.prototype.forEach.call(th.parentNode.children, function (h) { h.removeAttribute("aria-sort"); });
    th.setAttribute("aria-sort", asc ? "ascending" : "descending");
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a, i, type), y = cellValue(b, i, type);
      var c = x < y ? -1 : x > y ? 1 : 0;
      return asc ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  }
  function initSort(root) {
    (root || document).querySelectorAll("table.sortable thead th").forEach(function (th) {
      if (th.dataset.bound) return;
      th.dataset.bound = "1";
      th.addEventListener("click", function () { sortBy(th.closest("table"), th); });
    });
  }
  // Static site: the filter form filters rows by their data attributes (no server to ask).
  function initStaticFilter() {
    var form = document.getElementById("filters");
    if (!form || form.getAttribute("action") !== "") return;
    var table = document.getElementById("case-table");
    if (!table) return;
    var params = new URLSearchParams(location.hash.slice(1));
    params.forEach(function (v, k) { if (form.elements[k]) form.elements[k].value = v; });
    function apply(ev) {
      if (ev) ev.preventDefault();
      var f = {};
      ["gold", "pred", "outcome", "charge", "province", "year", "q"].forEach(function (k) {
        f[k] = form.elements[k] ? form.elements[k].value.trim() : "";
      });
      var shown = 0;
      Array.prototype.forEach.call(table.tBodies[0].rows, function (r) {
        var d = r.dataset, ok = true;
        if (f.gold && d.gold !== f.gold) ok = false;
        if (f.pred && d.pred !== f.pred) ok = false;
        if (f.outcome && d.outcome.split(" ").indexOf(f.outcome) < 0) ok = false;
        if (f.charge && d.charge.split("|").indexOf(f.charge) < 0) ok = false;
        if (f.province && d.province !== f.province) ok = false;
        if (f.year && d.year !== f.year) ok = false;
        if (f.q && r.textContent.indexOf(f.q) < 0) ok = false;
        r.hidden = !ok;
        if (ok) shown++;
      });
      var c = document.getElementById("shown-count");
      if (c) c.textContent = String(shown);
    }
    form.addEventListener("submit", apply);
    form.addEventListener("change", apply);
    form.addEventListener("input", apply);
    apply();
  }
  document.addEventListener("DOMContentLoaded", function () { initSort(); initStaticFilter(); });
  document.addEventListener("htmx:afterSwap", function (e) { initSort(e.target); });
})();
