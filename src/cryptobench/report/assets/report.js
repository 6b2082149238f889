// cryptobench HTML report: draws the charts and makes the tables sortable. All data comes
// from the JSON block #cb-data (never evaluated as code) and from the escaped tables.
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("cb-data").textContent);
  var config = { displaylogo: false, responsive: true };
  data.charts.forEach(function (chart) {
    var layout = Object.assign({}, chart.layout, { template: data.template });
    Plotly.newPlot(document.getElementById(chart.id), chart.data, layout, config);
  });
  document.body.setAttribute("data-charts", String(data.charts.length));

  // DataTables ships as an ES module: import it from a blob of the inlined bundle, whose `<`
  // and `%` were percent-encoded so the page parses the block as plain text.
  var encoded = document.getElementById("cb-datatables").textContent;
  var source = encoded.replace(/%3C|%25/g, function (m) { return m === "%3C" ? "<" : "%"; });
  var url = URL.createObjectURL(new Blob([source], { type: "text/javascript" }));
  import(url).then(function (mod) {
    URL.revokeObjectURL(url);
    var DataTable = mod.default;
    document.querySelectorAll("table.cb-sortable").forEach(function (table) {
      var rows = table.tBodies.length ? table.tBodies[0].rows.length : 0;
      new DataTable(table, {
        paging: rows > 200,
        pageLength: 100,
        order: [],
        autoWidth: false,
        columnDefs: [{ type: "num", targets: "num" }],
      });
    });
    document.body.setAttribute("data-tables", "ready");
  }).catch(function (err) {
    document.body.setAttribute("data-tables", "failed");
    console.warn("cryptobench: tables stay static (" + err + ")");
  });
})();
