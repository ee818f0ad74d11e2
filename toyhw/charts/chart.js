// toyhw's chart renderer in the browser: draws a chart description (toyhw.charts.figure) as SVG.
//
// Each step here is toyhw/charts/scene.py's, in the same order with the same arithmetic, so the page draws what the
// static SVG of the same description shows (the browser tests compare them element by element). The description
// arrives as the widget's `spec`; a move of a panel's control sends a new one and the page redraws it here: no image
// crosses the wire, and nothing is fetched from anywhere.

const NS = "http://www.w3.org/2000/svg";
const FONT = "'DejaVu Sans', Helvetica, Arial, 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'PingFang SC', sans-serif";
const LINE_HEIGHT = 1.25;
const FRAME = "#bbbbbb", TICK = "#555555", TEXT = "#222222";

function num(value) {
  // Python's f"{value:.1f}" rounds a tie to even, toFixed away from zero. The only ties a double can hold at one
  // decimal are x.25 and x.75 (a quarter that is odd); there round the tenths to even, as scene.py's num does.
  const quarters = value * 4;
  if (Number.isInteger(quarters) && quarters % 2 !== 0) {
    const below = Math.floor(value * 10);
    value = (below % 2 === 0 ? below : below + 1) / 10;
  }
  let text = value.toFixed(1);
  if (text.endsWith(".0")) text = text.slice(0, -2);
  return text === "-0" ? "0" : text;
}

function scale(axis, start, stop) {
  let [lo, hi] = axis.domain;
  if (axis.reverse) [start, stop] = [stop, start];
  if (axis.scale === "log") {
    lo = Math.log10(lo); hi = Math.log10(hi);
    return (v) => start + (Math.log10(v) - lo) / (hi - lo) * (stop - start);
  }
  return (v) => start + (v - lo) / (hi - lo) * (stop - start);
}

function* textElements(x, y, text, size, anchor = "start", baseline = "alphabetic", style = {}) {
  const lines = String(text).split("\n");
  const step = size * LINE_HEIGHT;
  let first = y;
  if (baseline === "middle") first = y - (lines.length - 1) * step / 2 + 0.35 * size;
  else if (baseline === "top") first = y + 0.8 * size;
  else if (baseline === "bottom") first = y - (lines.length - 1) * step - 0.25 * size;
  for (let k = 0; k < lines.length; k++) {
    const attrs = {"x": num(x), "y": num(first + k * step), "font-size": num(size), "text-anchor": anchor};
    Object.assign(attrs, style);
    yield ["text", attrs, lines[k]];
  }
}

function stroke(mark) {
  const attrs = {"stroke": mark.color, "stroke-width": num(mark.width ?? 1.5), "fill": "none"};
  if (mark.dash) attrs["stroke-dasharray"] = mark.dash;
  return attrs;
}

function* markElements(mark, sx, sy, box) {
  const kind = mark.type;
  if (kind === "line") {
    const points = mark.x.map((x, i) => `${num(sx(x))} ${num(sy(mark.y[i]))}`);
    yield ["path", {"d": "M" + points.join(" L"), ...stroke(mark)}, ""];
    if (mark.dots) {
      for (let i = 0; i < mark.x.length; i++) {
        yield ["circle", {"cx": num(sx(mark.x[i])), "cy": num(sy(mark.y[i])), "r": num(mark.dots), "fill": mark.color}, ""];
      }
    }
  } else if (kind === "area") {
    const upper = mark.x.map((x, i) => `${num(sx(x))} ${num(sy(mark.hi[i]))}`);
    const lower = mark.x.map((x, i) => `${num(sx(x))} ${num(sy(mark.lo[i]))}`).reverse();
    const attrs = {"d": "M" + upper.concat(lower).join(" L") + " Z", "fill": mark.color};
    yield ["path", {...attrs, "fill-opacity": mark.opacity ?? "0.15", "stroke": "none"}, ""];
  } else if (kind === "rule") {
    const [x0, y0, w, h] = box;
    if (mark.axis === "x") {
      const at = num(sx(mark.at));
      yield ["line", {"x1": at, "y1": num(y0), "x2": at, "y2": num(y0 + h), ...stroke(mark)}, ""];
    } else {
      const at = num(sy(mark.at));
      yield ["line", {"x1": num(x0), "y1": at, "x2": num(x0 + w), "y2": at, ...stroke(mark)}, ""];
    }
  } else if (kind === "rect") {
    const xa = sx(mark.x0), xb = sx(mark.x1), ya = sy(mark.y0), yb = sy(mark.y1);
    const attrs = {
      "x": num(Math.min(xa, xb)),
      "y": num(Math.min(ya, yb)),
      "width": num(Math.abs(xb - xa)),
      "height": num(Math.abs(yb - ya)),
      "fill": mark.fill ?? "none",
    };
    if (mark.stroke) Object.assign(attrs, {"stroke": mark.stroke, "stroke-width": num(mark.width ?? 1)});
    yield ["rect", attrs, ""];
  } else if (kind === "text") {
    const style = {"fill": mark.color ?? TEXT};
    if (mark.bold) style["font-weight"] = "bold";
    yield* textElements(sx(mark.x) + (mark.dx ?? 0), sy(mark.y) + (mark.dy ?? 0), mark.text, mark.size ?? 11,
                        mark.anchor ?? "start", mark.baseline ?? "middle", style);
  } else if (kind === "dot") {
    yield ["circle", {"cx": num(sx(mark.x)), "cy": num(sy(mark.y)), "r": num(mark.r ?? 4), "fill": mark.color}, ""];
  } else {
    throw new Error(`mark type = ${kind} is not allowed; marks: line, area, rule, rect, text, dot`);
  }
}

function swatch(item, x, y) {
  if ((item.kind ?? "line") === "box") {
    return ["rect", {"x": num(x), "y": num(y - 5), "width": "18", "height": "10", "fill": item.color}, ""];
  }
  const attrs = {"x1": num(x), "y1": num(y), "x2": num(x + 18), "y2": num(y), "stroke": item.color, "stroke-width": "2"};
  if (item.dash) attrs["stroke-dasharray"] = item.dash;
  return ["line", attrs, ""];
}

function* plotElements(plot) {
  const [x0, y0, w, h] = plot.box;
  const sx = scale(plot.x, x0, x0 + w), sy = scale(plot.y, y0 + h, y0);
  for (const mark of plot.marks) yield* markElements(mark, sx, sy, plot.box);
  yield ["rect", {"x": num(x0), "y": num(y0), "width": num(w), "height": num(h), "fill": "none", "stroke": FRAME}, ""];
  for (const [value, label] of plot.x.ticks ?? []) {
    const at = sx(value);
    yield ["line", {"x1": num(at), "y1": num(y0 + h), "x2": num(at), "y2": num(y0 + h + 4), "stroke": TICK}, ""];
    yield* textElements(at, y0 + h + 6, label, 11, "middle", "top", {"fill": TEXT});
  }
  for (const [side, axis] of [["left", plot.y], ["right", plot.y2]]) {
    for (const [value, label] of (axis ?? {}).ticks ?? []) {
      const at = sy(value);
      const [edge, out] = side === "left" ? [x0, -4] : [x0 + w, 4];
      yield ["line", {"x1": num(edge), "y1": num(at), "x2": num(edge + out), "y2": num(at), "stroke": TICK}, ""];
      yield* textElements(edge + 1.5 * out, at, label, 11, side === "left" ? "end" : "start", "middle", {"fill": TEXT});
    }
  }
  if (plot.x.label) yield* textElements(x0 + w / 2, plot.x.label_at, plot.x.label, 12, "middle", "top", {"fill": TEXT});
  for (const [side, axis] of [["left", plot.y], ["right", plot.y2]]) {
    if (axis && axis.label) {
      const at = axis.label_at, mid = y0 + h / 2;
      const turn = `rotate(${side === "left" ? -90 : 90} ${num(at)} ${num(mid)})`;
      yield* textElements(at, mid, axis.label, 12, "middle", "middle", {"fill": TEXT, "transform": turn});
    }
  }
  if (plot.title) {
    yield* textElements(x0 + w / 2, plot.title_at, plot.title, 13, "middle", "top", {"fill": TEXT, "font-weight": "bold"});
  }
  for (const item of plot.legend ?? []) {
    yield swatch(item, item.x, item.y);
    yield* textElements(item.x + 24, item.y, item.label, 11, "start", "middle", {"fill": TEXT});
  }
}

export function* elements(spec) {
  const width = spec.width, height = spec.height;
  yield ["rect", {"x": "0", "y": "0", "width": num(width), "height": num(height), "fill": "#ffffff"}, ""];
  if (spec.title) yield* textElements(width / 2, 8, spec.title, 14, "middle", "top", {"fill": TEXT, "font-weight": "bold"});
  for (const plot of spec.plots) yield* plotElements(plot);
}

export function draw(spec) {
  const svg = document.createElementNS(NS, "svg");
  const width = num(spec.width), height = num(spec.height);
  svg.setAttribute("width", width);
  svg.setAttribute("height", height);
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("font-family", FONT);
  for (const [tag, attrs, text] of elements(spec)) {
    const el = document.createElementNS(NS, tag);
    for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, value);
    if (text) el.textContent = text;
    svg.appendChild(el);
  }
  return svg;
}

function render({ model, el }) {
  el.classList.add("toyhw-chart");
  const show = () => {
    const spec = model.get("spec");
    if (!spec || !spec.plots) { el.replaceChildren(); return; }
    el.style.minHeight = `${spec.height}px`;  // the page keeps its place while a new drawing replaces the old
    el.replaceChildren(draw(spec));
  };
  show();
  model.on("change:spec", show);
}

export default { render };
