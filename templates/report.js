// reportgen report: sortable tables, figure zoom (mouse and keyboard) and the contents
// sidebar's subsections and current-section mark. No network, no libraries; the report
// reads the same without it (and the PDF never runs it).
(function () {
  "use strict";
  var SUPERSCRIPT = {"\u207b": "-", "\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3", "\u2074": "4",
                     "\u2075": "5", "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9"};
  function cellValue(cell) {
    var text = cell.textContent.trim();
    // Numbers as the report prints them: "−3", "2.5×10⁻⁴", "10⁻³" (a bare power of ten, which
    // parseFloat would read as 10), "83%", "∞".
    var normal = text.replace(/\u2212/g, "-").replace(/^(-?)(?:([0-9.]+)\u00d7)?10([\u207b\u2070-\u2079\u00b9\u00b2\u00b3]+)/, function (_, sign, mantissa, exp) {
      return sign + (mantissa || "1") + "e" + exp.split("").map(function (c) { return SUPERSCRIPT[c]; }).join("");
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
    var img = figure.querySelector("img");
    // Keyboard too: the figure is focusable; Enter or Space zooms, Escape (or again) closes.
    img.setAttribute("tabindex", "0");
    img.setAttribute("role", "button");
    img.setAttribute("aria-label", "Zoom figure" + (img.alt ? ": " + img.alt : ""));
    var toggle = function () {
      var zoomed = figure.classList.toggle("zoomed");
      img.setAttribute("aria-expanded", zoomed ? "true" : "false");
    };
    img.addEventListener("click", toggle);
    img.addEventListener("keydown", function (e) { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
  });
  // Sidebar: each section's subsections (its h3 headings) under it, and the section being read
  // marked as it scrolls by.
  var sidebar = document.querySelector("nav.sidebar");
  if (sidebar) {
    var marks = [];
    sidebar.querySelectorAll("a[href^='#']").forEach(function (link) {
      var section = document.getElementById(link.getAttribute("href").slice(1));
      if (!section) { return; }
      marks.push([section, link]);
      var headings = section.querySelectorAll("h3");
      if (!headings.length) { return; }
      var list = document.createElement("ol");
      list.className = "sub";
      headings.forEach(function (h, i) {
        if (!h.id) { h.id = section.id + "-" + (i + 1); }
        var item = document.createElement("li");
        var a = document.createElement("a");
        a.href = "#" + h.id;
        a.textContent = h.textContent;
        item.appendChild(a);
        list.appendChild(item);
        marks.push([h, a]);
      });
      link.parentNode.appendChild(list);
    });
    var mark = function () {
      var current = null;
      marks.forEach(function (pair) { if (pair[0].getBoundingClientRect().top < window.innerHeight * 0.25) { current = pair; } });
      marks.forEach(function (pair) { pair[1].classList.toggle("current", pair === current); });
      if (current) {
        var section = current[1].closest("nav.sidebar > ol > li");
        sidebar.querySelectorAll("nav.sidebar > ol > li").forEach(function (li) { li.classList.toggle("open", li === section); });
      }
    };
    window.addEventListener("scroll", mark, {passive: true});
    mark();
  }
  document.addEventListener("keydown", function (e) {
    if (e.key === "Escape") {
      document.querySelectorAll("figure.plot.zoomed").forEach(function (f) { f.classList.remove("zoomed"); });
    }
  });
})();
