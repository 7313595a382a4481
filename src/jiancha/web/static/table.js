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
    var names = ["gold", "pred", "outcome", "charge", "province", "year", "q"];
    // The address's fragment holds the filters (#outcome=wrong): read on load, on every change of the fragment
    // (a link to the same page with other filters, Back, Forward), and written back when the form changes.
    function readHash() {
      var params = new URLSearchParams(location.hash.slice(1));
      names.forEach(function (k) { if (form.elements[k]) form.elements[k].value = params.get(k) || ""; });
      apply();
    }
    function writeHash() {
      var params = new URLSearchParams();
      names.forEach(function (k) {
        var v = form.elements[k] ? form.elements[k].value.trim() : "";
        if (v) params.set(k, v);
      });
      var hash = params.toString();
      if (hash === location.hash.slice(1)) return;
      try {
        history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
      } catch (e) { /* some browsers refuse history edits on file:// pages; the filter still applies */ }
    }
    function apply(ev) {
      if (ev) { ev.preventDefault(); writeHash(); }
      var f = {};
      names.forEach(function (k) {
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
    window.addEventListener("hashchange", readHash);
    readHash();
  }
  document.addEventListener("DOMContentLoaded", function () { initSort(); initStaticFilter(); });
  document.addEventListener("htmx:afterSwap", function (e) { initSort(e.target); });
})();
