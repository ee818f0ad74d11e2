// The board's page: the table of /api/board, redrawn every 2 s. Every name is set as text, never as HTML.
const labels = JSON.parse(document.body.dataset.labels);
const heads = [["board.head.rank", ""], ["board.head.name", ""], ["board.head.held_out", "num"], ["board.head.train", "num"]];

function cell(row, text, cls) {
  const td = document.createElement(row ? "td" : "th");
  td.textContent = text;
  if (cls) td.className = cls;
  return td;
}

function draw(data) {
  const head = document.querySelector("#board thead");
  const body = document.querySelector("#board tbody");
  const tr = document.createElement("tr");
  heads.forEach(([key, cls]) => tr.appendChild(cell(false, labels[key], cls)));
  head.replaceChildren(tr);
  body.replaceChildren(...data.rows.map((r) => {
    const row = document.createElement("tr");
    if (r.kind !== "student") row.className = "fixed";
    row.appendChild(cell(true, String(r.rank)));
    row.appendChild(cell(true, r.kind === "student" ? r.name : labels[r.kind]));
    row.appendChild(cell(true, r.held_out.toFixed(3), "num"));
    row.appendChild(cell(true, r.train.toFixed(3), "num"));
    return row;
  }));
}

async function poll() {
  try {
    const answer = await fetch("/api/board", { cache: "no-store" });
    draw(await answer.json());
    document.getElementById("status").textContent = new Date().toLocaleTimeString();
  } catch (err) {
    document.getElementById("status").textContent = String(err);
  }
}

poll();
setInterval(poll, 2000);
