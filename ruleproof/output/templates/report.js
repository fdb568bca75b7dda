// ruleproof report: clause filters and the counterexample step-through. Reads only the page itself.
"use strict";
for (const game of document.querySelectorAll("section.game")) {
  const boxes = [...game.querySelectorAll(".filters input")];
  const refilter = () => {
    const shown = new Set(boxes.filter((b) => b.checked).map((b) => b.value));
    for (const row of game.querySelectorAll("tr.clause")) row.hidden = !shown.has(row.dataset.status);
  };
  for (const box of boxes) box.addEventListener("change", refilter);
  refilter();
}
for (const stepper of document.querySelectorAll(".stepper")) {
  const items = [...stepper.querySelectorAll("ol.steps li")];
  const last = items.length;
  const q = (sel) => stepper.querySelector(sel);
  const list = q("ol.steps");  // scrolled by hand: scrollIntoView would scroll the whole page on load
  const note = (text) => { const p = document.createElement("p"); p.className = "note"; p.textContent = text; return p; };
  const fill = (slot, k) => {
    const view = q(`template.view[data-step="${k}"]`);
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
