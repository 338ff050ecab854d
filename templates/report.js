// reportgen report: sortable tables, figure zoom (mouse and keyboard) and the contents
// sidebar's subsections and current-section mark. No network, no libraries; the report
// reads the same without it (and the PDF never runs it).
(function () {
  "use strict";
  var SUPERSCRIPT = {"\u207b": "-", "\u207a": "", "\u2070": "0", "\u00b9": "1", "\u00b2": "2", "\u00b3": "3",
                     "\u2074": "4", "\u2075": "5", "\u2076": "6", "\u2077": "7", "\u2078": "8", "\u2079": "9"};
  var POWER = /^([-+]?)(?:([0-9.]+)\s*[\u00d7\u00b7x]\s*)?10([\u207a\u207b\u2070-\u2079\u00b9\u00b2\u00b3]+)/;
  var MISSING = /^(?:|[-\u2012-\u2015\u2212?]|n\/?a|nan|none)$/i;
  // The key a cell sorts by: [0, number] for a number as the report prints it, [1, text] for
  // words, [2, ""] for an empty or dash cell — numbers first, words after, blanks last. Numbers
  // as printed: "−3" (minus sign), "2.5×10⁻⁴" and "2.5·10⁻⁴", "10⁻³" (a bare power of ten,
  // which parseFloat would read as 10), "1.2e-5" and "1.2e−5", "83 %", "∞", "< 0.001",
  // "1,234", "0.42 [0.31, 0.55]" (the leading number).
  function sortKey(raw) {
    var text = raw.replace(/\s+/g, " ").trim();
    if (MISSING.test(text)) { return [2, ""]; }
    var normal = text.replace(/\u2212/g, "-").replace(/^[<>\u2264\u2265\u2248~]\s*/, "")
      .replace(POWER, function (_, sign, mantissa, exp) {
        return sign + (mantissa || "1") + "e" + exp.split("").map(function (c) { return SUPERSCRIPT[c]; }).join("");
      }).replace(/^([-+]?\d{1,3}(?:,\d{3})+)(?![\d])/, function (m) { return m.replace(/,/g, ""); });
    var infinite = /^([-+]?)(\u221e|inf(?:inity)?)(?![a-z])/i.exec(normal);
    if (infinite) { return [0, infinite[1] === "-" ? -Infinity : Infinity]; }
    if (!/^[-+]?\.?[0-9]/.test(normal)) { return [1, text.toLowerCase()]; }
    return [0, parseFloat(normal)];
  }
  function compareKeys(x, y) {
    if (x[0] !== y[0]) { return x[0] - y[0]; }
    // Words with numbers in natural order: "F2 (D=10)" before "F10 (D=10)".
    if (x[0] === 1) { return x[1].localeCompare(y[1], "en", {numeric: true}); }
    return x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0;
  }
  // The order (indices) in which cells with these texts sort: blank cells last in both
  // directions, equal keys in their order (a stable sort).
  function order(texts, ascending) {
    var keyed = texts.map(function (text, i) { return [sortKey(text), i]; });
    keyed.sort(function (a, b) {
      if ((a[0][0] === 2) !== (b[0][0] === 2)) { return a[0][0] === 2 ? 1 : -1; }
      return compareKeys(a[0], b[0]) * (ascending ? 1 : -1) || a[1] - b[1];
    });
    return keyed.map(function (pair) { return pair[1]; });
  }
  function sortBy(table, column, ascending) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var texts = rows.map(function (row) { var cell = row.cells[column]; return cell ? cell.textContent : ""; });
    order(texts, ascending).forEach(function (i) { body.appendChild(rows[i]); });
  }
  if (typeof module !== "undefined" && module.exports) {
    module.exports = {sortKey: sortKey, order: order};  // for the tests (node)
  }
  if (typeof document === "undefined") { return; }
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
  // A table's scroll box is a Tab stop (so the keyboard can scroll it) only while its table is
  // wider than the box: a long report's every table added a stop that scrolled nothing.
  var boxes = document.querySelectorAll(".table-scroll[tabindex]");
  var stops = function () {
    boxes.forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1) { box.setAttribute("tabindex", "0"); } else { box.removeAttribute("tabindex"); }
    });
  };
  stops();
  window.addEventListener("resize", stops);
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
    // Focus leaving a zoomed figure (Tab, a click outside it) closes it: else the keyboard
    // went on through links and headers hidden under it.
    img.addEventListener("blur", function () { if (figure.classList.contains("zoomed")) { toggle(); } });
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
      document.querySelectorAll("figure.plot.zoomed").forEach(function (f) {
        f.classList.remove("zoomed");
        f.querySelector("img").setAttribute("aria-expanded", "false");
      });
    }
  });
})();
