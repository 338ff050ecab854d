// reportgen report: sortable tables and figure zoom. No network, no libraries; the report
// reads the same without it (and the PDF never runs it).
(function () {
  "use strict";
  function cellValue(cell) {
    var text = cell.textContent.trim();
    var normal = text.replace(/\u2212/g, "-").replace(/\u00d710([\u207b\u2070-\u2079\u00b9\u00b2\u00b3]+)/, function (_, exp) {
      var map = {"\u207b": "-", "\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3", "\u2074": "4",
                 "\u2075": "5", "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9"};
      return "e" + exp.split("").map(function (c) { return map[c]; }).join("");
    }).replace(/%$/, "");
    if (normal === "\u221e") { return Infinity; }
    var number = parseFloat(normal);
    return isNaN(number) || !/^[-+]?[0-9.]/.test(normal) ? text.toLowerCase() : number;
  }
  function sortBy(table, column, ascending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    rows.sort(function (a, b) {
      var x = cellValue(a.cells[column]), y = cellValue(b.cells[column]);
      if (typeof x !== typeof y) { x = String(x); y = String(y); }
      return (x < y ? -1 : x > y ? 1 : 0) * (ascending ? 1 : -1);
    });
    rows.forEach(function (row) { body.appendChild(row); });
  }
  document.querySelectorAll("table.sortable").forEach(function (table) {
    var headers = table.tHead ? table.tHead.rows[0].cells : [];
    Array.prototype.forEach.call(headers, function (th, column) {
      th.setAttribute("tabindex", "0");
      th.setAttribute("aria-sort", "none");
      th.title = "Sort by this column";
      var activate = function () {
        var ascending = th.getAttribute("aria-sort") !== "ascending";
        Array.prototype.forEach.call(headers, function (h) { h.setAttribute("aria-sort", "none"); });
        th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
        sortBy(table, column, ascending);
      };
      th.addEventListener("click", activate);
      th.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); activate(); } });
    });
  });
  document.querySelectorAll("figure.plot").forEach(function (figure) {
    figure.querySelector("img").addEventListener("click", function () { figure.classList.toggle("zoomed"); });
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") {
      document.querySelectorAll("figure.plot.zoomed").forEach(function (f) { f.classList.remove("zoomed"); });
    }
  });
})();
