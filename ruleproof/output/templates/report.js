// ruleproof report: clause filters and the counterexample step-through. Reads only the page itself.
"use strict";
// A diff of ruleproof.model.traces applied to a value: {} unchanged, {is: V} V whole, {set: {K: D}, del: [K]}
// an object's keys, {splice: [[I, N, [V]]], at: {J: D}} a list's N items at I replaced by the Vs, then item J patched.
const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const put = (o, k, v) => Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
const patch = (a, d) => {
  if (own(d, "is")) return d.is;
  if (own(d, "set") || own(d, "del")) {
    const gone = new Set(d.del || []), set = d.set || {}, out = {};
    for (const k of Object.keys(a)) if (!gone.has(k)) put(out, k, own(set, k) ? patch(a[k], set[k]) : a[k]);
    for (const k of Object.keys(set)) if (!own(a, k)) put(out, k, patch(null, set[k]));
    return out;
  }
  if (own(d, "splice") || own(d, "at")) {
    let items = a;
    if (own(d, "splice")) {
      items = [];
      let start = 0;
      for (const [index, removed, added] of d.splice) { items.push(...a.slice(start, index), ...added); start = index + removed; }
      items = items.concat(a.slice(start));
    }
    const at = d.at || {};
    return items.map((x, i) => (own(at, String(i)) ? patch(x, at[String(i)]) : x));
  }
  return a;
};
// a trace's states from their diffs, the first from null
const unpackStates = (diffs) => { let state = null; return diffs.map((d) => (state = patch(state, d))); };
for (const game of document.querySelectorAll("section.game")) {
  const boxes = [...game.querySelectorAll(".filters input")];
  const refilter = () => {
    const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
    for (const row of game.querySelectorAll("tr.clause")) row.hidden = !shown.has(row.dataset.status);
  };
  for (const box of boxes) box.addEventListener("change", refilter);
  refilter();
}
// the fragments of HTML the drawn states are made of, each once (ruleproof.output.html.PageViews)
const fragmentData = document.getElementById("fragments");
const fragments = fragmentData ? JSON.parse(fragmentData.textContent) : [];
for (const stepper of document.querySelectorAll(".stepper")) {
  const items = [...stepper.querySelectorAll("ol.steps li")];
  const last = items.length;
  const q = (sel) => stepper.querySelector(sel);
  const list = q("ol.steps");  // scrolled by hand: scrollIntoView would scroll the whole page on load
  const note = (text) => { const p = document.createElement("p"); p.className = "note"; p.textContent = text; return p; };
  // each step's table as the kit drew it (escaped there): its lines rebuilt from the diffs (the page holds
  // them once, with the first stepper that draws them), each line the numbers of its fragments of HTML
  const data = document.querySelector(`script.views[data-key="${stepper.dataset.views}"]`);
  const views = (data ? unpackStates(JSON.parse(data.textContent)) : []).map((lines) => {
    const view = document.createElement("template");
    view.innerHTML = lines.map((numbers) => numbers.map((n) => fragments[n]).join("")).join("\n");
    return view;
  });
  const fill = (slot, k) => {
    const view = views[k - 1];
    slot.replaceChildren(view ? view.content.cloneNode(true) : note(k < 1 ? "no game yet" : "state not recorded"));
  };
  const show = (k) => {
    k = Math.max(1, Math.min(last, k));
    stepper.dataset.current = String(k);
    items.forEach((li, i) => {
      li.classList.toggle("current", i + 1 === k);
      if (i + 1 === k) { li.setAttribute("aria-current", "step"); list.scrollTop = li.offsetTop - list.clientHeight / 2; }
      else li.removeAttribute("aria-current");
    });
    fill(q(".panel.before .slot"), k - 1);
    fill(q(".panel.after .slot"), k);
    // the step as its list entry draws it (the seat, the move's cards), numbered
    const drawn = [...items[k - 1].querySelector("button").childNodes].map((n) => n.cloneNode(true));
    q(".stepline").replaceChildren(document.createTextNode(`${k}. `), ...drawn);
    q(".position").textContent = `step ${k} of ${last}`;
    stepper.classList.toggle("at-violation", k === last);
    q(".scrub").value = String(k);
    q(".first").disabled = q(".prev").disabled = k === 1;
    q(".next").disabled = q(".last").disabled = k === last;
  };
  const current = () => Number(stepper.dataset.current);
  q(".first").addEventListener("click", () => show(1));
  q(".prev").addEventListener("click", () => show(current() - 1));
  q(".next").addEventListener("click", () => show(current() + 1));
  q(".last").addEventListener("click", () => show(last));
  q(".scrub").addEventListener("input", (e) => show(Number(e.target.value)));
  items.forEach((li, i) => li.querySelector("button").addEventListener("click", () => show(i + 1)));
  stepper.tabIndex = 0;
  stepper.addEventListener("keydown", (e) => {
    if (e.key === "ArrowLeft") { show(current() - 1); e.preventDefault(); }
    if (e.key === "ArrowRight") { show(current() + 1); e.preventDefault(); }
  });
  show(last);  // open on the violation: that is what the reader came for
}
