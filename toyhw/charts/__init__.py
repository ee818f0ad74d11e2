"""Charts drawn in the browser: a figure is described as data (toyhw.charts.figure), drawn by the page (chart.js,
through toyhw.charts.widget) and exported as SVG from the same description for the static views (toyhw.charts.svg)."""
