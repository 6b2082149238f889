// cryptobench HTML report, "Explore": bar charts at one message size (per primitive, per
// runtime, or the fastest of each runtime), a runtime filter, and a size sweep of a few
// implementations. Data comes from #cb-data (JSON, never evaluated); every string from it is
// escaped before Plotly sees it, since Plotly renders a subset of HTML in labels.
(function () {
  "use strict";
  var all = JSON.parse(document.getElementById("cb-data").textContent);
  var data = all.explore;
  if (!data || !data.records.length || !document.getElementById("cb-view")) return;
  data.records = data.records.map(function (row) {
    var rec = {};
    data.fields.forEach(function (name, i) { rec[name] = row[i]; });
    return rec;
  });
  var template = all.template;
  var config = { displaylogo: false, responsive: true };
  var manyRuns = data.runs.length > 1;
  var pinned = {}; // implementation (and run) ids clicked into the size sweep
  var state = { view: "primitive", size: data.size, runtimes: {} };
  data.runtimes.forEach(function (rt) { state.runtimes[rt] = true; });

  function esc(text) {
    return String(text).replace(/[&<>"']/g, function (c) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c];
    });
  }
  function runSuffix(rec) { return manyRuns ? " · " + data.runs[rec.run] : ""; }
  function implKey(rec) { return rec.impl + "\u0000" + rec.run; }
  function caseTitle(rec) {
    return rec.primitive + " · " + rec.op + (rec.params ? " · " + rec.params : "");
  }
  function value(rec, ns) { return rec.slow ? ns / 1e6 : rec.size / ns * 1e3; }
  function unit(rec) { return rec.slow ? "ms per operation (lower is better)" : "MB/s (MB = 10⁶ B; higher is better)"; }
  function better(a, b) { return a.ns < b.ns; }

  function groupBy(records, keyOf) {
    var groups = {}, order = [];
    records.forEach(function (rec) {
      var k = keyOf(rec);
      if (!(k in groups)) { groups[k] = []; order.push(k); }
      groups[k].push(rec);
    });
    return order.map(function (k) { return groups[k]; });
  }
  function familyRank(rec) {
    var i = data.families.indexOf(rec.family);
    return i < 0 ? 99 : i;
  }
  function sortGroups(groups, first) {
    return groups.sort(function (a, b) {
      var x = [first ? first(a[0]) : "", familyRank(a[0]), caseTitle(a[0])];
      var y = [first ? first(b[0]) : "", familyRank(b[0]), caseTitle(b[0])];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  }

  // The size each group is shown at: the chosen one, or the group's nearest (KDFs: 8 B).
  function atSize(recs) {
    var sizes = recs.map(function (r) { return r.size; });
    var want = Number(state.size), best = sizes[0];
    sizes.forEach(function (s) {
      if (Math.abs(Math.log(s + 1) - Math.log(want + 1)) < Math.abs(Math.log(best + 1) - Math.log(want + 1))) best = s;
    });
    return recs.filter(function (r) { return r.size === best; });
  }

  function bars(recs, labelOf, colorOf, title) {
    var rows = recs.slice().sort(function (a, b) { return a.ns - b.ns; });
    var byColor = {};
    rows.forEach(function (rec) {
      var c = colorOf(rec);
      (byColor[c.name] = byColor[c.name] || { color: c.color, recs: [] }).recs.push(rec);
    });
    var labels = rows.map(function (rec) { return esc(labelOf(rec)); });
    var traces = Object.keys(byColor).sort().map(function (name) {
      var g = byColor[name];
      var x = g.recs.map(function (r) { return value(r, r.ns); });
      // the interval of the median in time per operation, as whiskers in the shown unit
      var hi = g.recs.map(function (r) { return value(r, r.slow ? r.hi : r.lo); });
      var lo = g.recs.map(function (r) { return value(r, r.slow ? r.lo : r.hi); });
      return {
        type: "bar", orientation: "h", name: esc(name),
        x: x, y: g.recs.map(function (r) { return esc(labelOf(r)); }),
        customdata: g.recs.map(implKey),
        marker: { color: g.color },
        error_x: {
          type: "data", visible: true, color: "#444", thickness: 1.2, width: 3,
          array: hi.map(function (h, i) { return h - x[i]; }),
          arrayminus: lo.map(function (l, i) { return x[i] - l; }),
        },
        hovertemplate: "%{y}: %{x:.4g}<extra></extra>",
      };
    });
    var first = rows[0];
    return {
      data: traces,
      layout: {
        title: { text: esc(title) + " <span style='font-size:12px'>at " + first.size + " B</span>" },
        barmode: "overlay", template: template,
        height: Math.max(220, 110 + 24 * rows.length),
        margin: { l: 10, r: 20, t: 50, b: 45 },
        xaxis: { title: { text: unit(first) }, rangemode: "tozero", automargin: true },
        yaxis: { categoryorder: "array", categoryarray: labels, autorange: "reversed", automargin: true },
        legend: { orientation: "v", x: 1.01, y: 1, yanchor: "top" },
      },
    };
  }

  function runtimeColor(rec) { return { name: rec.runtime, color: data.colors[rec.runtime] }; }
  function palette(i) { return ["#4c78a8", "#f58518", "#54a24b", "#e45756", "#72b7b2", "#b279a2", "#ff9da6", "#9d755d"][i % 8]; }

  function shown() {
    return data.records.filter(function (rec) { return state.runtimes[rec.runtime]; });
  }
  function mark(rec) { return rec.fresh ? " †" : ""; }

  function charts() {
    var recs = shown(), out = [];
    var caseKey = function (r) { return [r.family, r.primitive, r.op, r.params].join("\u0000"); };
    if (state.view === "primitive") {
      sortGroups(groupBy(recs, caseKey)).forEach(function (g) {
        out.push(bars(atSize(g), function (r) { return r.impl + mark(r) + runSuffix(r); }, runtimeColor, caseTitle(g[0])));
      });
    } else if (state.view === "runtime") {
      var famKey = function (r) { return [r.runtime, r.family, r.op, r.params].join("\u0000"); };
      sortGroups(groupBy(recs, famKey), function (r) { return r.runtime; }).forEach(function (g) {
        var libs = {};
        g.forEach(function (r) { if (!(r.library in libs)) libs[r.library] = Object.keys(libs).length; });
        var title = g[0].runtime + " · " + g[0].family + " · " + g[0].op + (g[0].params ? " · " + g[0].params : "");
        var parts = groupBy(g, function (r) { return r.primitive; }).map(atSize);
        var picked = [].concat.apply([], parts);
        out.push(bars(picked, function (r) { return r.primitive + "  " + r.library + mark(r) + runSuffix(r); },
          function (r) { return { name: r.library, color: palette(libs[r.library]) }; }, title));
      });
    } else {
      sortGroups(groupBy(recs, caseKey)).forEach(function (g) {
        var best = {};
        atSize(g).forEach(function (r) {
          var k = r.runtime + "\u0000" + r.run;
          if (!best[k] || better(r, best[k])) best[k] = r;
        });
        var picked = Object.keys(best).map(function (k) { return best[k]; });
        out.push(bars(picked, function (r) { return r.runtime + " (" + r.library + mark(r) + ")" + runSuffix(r); },
          runtimeColor, caseTitle(g[0]) + " · fastest per runtime"));
      });
    }
    return out;
  }

  // two libraries of one runtime share its colour in a sweep: they differ by line style
  var DASHES = ["solid", "dash", "dot", "dashdot", "longdash"];
  var libraries = {};
  data.records.forEach(function (r) {
    var seen = (libraries[r.runtime] = libraries[r.runtime] || []);
    if (seen.indexOf(r.library) < 0) seen.push(r.library);
  });
  function libraryRank(rec) { return libraries[rec.runtime].indexOf(rec.library); }

  function sweeps() {
    var recs = shown().filter(function (r) { return !r.slow && r.size > 0; });
    var caseKey = function (r) { return [r.family, r.primitive, r.op, r.params].join("\u0000"); };
    var anyPinned = Object.keys(pinned).length > 0;
    var out = [];
    sortGroups(groupBy(recs, caseKey)).forEach(function (g) {
      if (new Set(g.map(function (r) { return r.size; })).size < 2) return;
      var chosen = {};
      if (anyPinned) {
        g.forEach(function (r) { if (pinned[implKey(r)]) chosen[implKey(r)] = true; });
      } else {
        var best = {};
        atSize(g).forEach(function (r) {
          var k = r.runtime + "\u0000" + r.run;
          if (!best[k] || better(r, best[k])) best[k] = r;
        });
        Object.keys(best).forEach(function (k) { chosen[implKey(best[k])] = true; });
      }
      var lines = groupBy(g.filter(function (r) { return chosen[implKey(r)]; }), implKey);
      if (!lines.length) return;
      var traces = lines.map(function (line) {
        line.sort(function (a, b) { return a.size - b.size; });
        var r0 = line[0];
        var y = line.map(function (r) { return value(r, r.ns); });
        return {
          type: "scatter", mode: "lines+markers", name: esc(r0.impl + mark(r0) + runSuffix(r0)),
          x: line.map(function (r) { return r.size; }), y: y,
          line: { color: data.colors[r0.runtime], dash: DASHES[(libraryRank(r0) + r0.run) % DASHES.length] },
          error_y: {
            type: "data", visible: true,
            array: line.map(function (r, i) { return value(r, r.lo) - y[i]; }),
            arrayminus: line.map(function (r, i) { return y[i] - value(r, r.hi); }),
          },
          hovertemplate: "%{x} B: %{y:.4g} MB/s<extra>%{fullData.name}</extra>",
        };
      });
      out.push({
        data: traces,
        layout: {
          title: { text: esc(caseTitle(g[0])) + " · size sweep" }, template: template,
          height: 380, margin: { l: 70, r: 20, t: 50, b: 40 }, showlegend: true,
          xaxis: { type: "log", title: { text: "message size (bytes)" } },
          yaxis: { type: "log", title: { text: "throughput (MB/s, MB = 10⁶ B)" } },
          legend: { orientation: "h", y: -0.2, yanchor: "top" },
        },
      });
    });
    return out;
  }

  function draw(containerId, figures, kind) {
    var box = document.getElementById(containerId);
    box.querySelectorAll(".js-plotly-plot").forEach(function (el) { Plotly.purge(el); });
    box.textContent = "";
    figures.forEach(function (fig, i) {
      var figure = document.createElement("figure");
      figure.className = "cb-chart";
      figure.setAttribute("data-kind", kind);
      var div = document.createElement("div");
      div.id = containerId + "-" + (i + 1);
      div.className = "cb-plot";
      figure.appendChild(div);
      box.appendChild(figure);
      Plotly.newPlot(div, fig.data, fig.layout, config);
      if (kind === "bars") {
        div.on("plotly_click", function (ev) {
          var key = ev.points[0].customdata;
          if (pinned[key]) delete pinned[key]; else pinned[key] = true;
          drawSweeps();
        });
      }
    });
    if (!figures.length) {
      var p = document.createElement("p");
      p.textContent = "No measured case for the chosen runtimes.";
      box.appendChild(p);
    }
  }
  function drawSweeps() {
    var names = Object.keys(pinned).map(function (k) { return k.split("\u0000")[0]; });
    document.getElementById("cb-sweep-note").textContent = names.length
      ? "Throughput against message size (log–log) for the implementations you clicked: " +
        names.join(", ") + " (click a bar again to remove it)."
      : "Throughput against message size (log–log) for a few implementations: the fastest " +
        "of each runtime at the chosen size; click bars above to choose others.";
    draw("cb-sweeps", sweeps(), "sweep");
    document.body.setAttribute("data-sweeps", String(document.querySelectorAll("#cb-sweeps .js-plotly-plot").length));
  }
  function redraw() {
    draw("cb-bars", charts(), "bars");
    drawSweeps();
    document.body.setAttribute("data-view", state.view + " " + state.size);
  }

  document.getElementById("cb-view").addEventListener("change", function (e) { state.view = e.target.value; redraw(); });
  document.getElementById("cb-size").addEventListener("change", function (e) { state.size = e.target.value; redraw(); });
  var boxes = document.querySelectorAll("#cb-runtimes input[type=checkbox]");
  boxes.forEach(function (box) {
    box.addEventListener("change", function () { state.runtimes[box.value] = box.checked; redraw(); });
  });
  function setAll(on) {
    boxes.forEach(function (box) { box.checked = on; state.runtimes[box.value] = on; });
    redraw();
  }
  document.getElementById("cb-rt-all").addEventListener("click", function () { setAll(true); });
  document.getElementById("cb-rt-none").addEventListener("click", function () { setAll(false); });
  redraw();
})();
