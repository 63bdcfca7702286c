// The page: a file opened by dropping it, by the picker, or by `?src=PATH` (a file on this same
// server) is read into the page and handed to shaderscope compiled to WebAssembly
// (shaderscope_web.js, made by wasm-bindgen). Everything shown is what the command line says
// for the same file: the viewer page `shaderscope view` writes, `info`, `validate`, `extract`,
// `scan`. Nothing is sent anywhere.

import init, { Opened, scan, find_bytes } from "./shaderscope_web.js";

const $ = (id) => document.getElementById(id);

/** The file on show: the parsed file, its bytes, its name; and the listing switches set. */
let current = null;
let options = {};

function message(text) {
  $("message").textContent = text;
  $("message").hidden = !text;
}

/** A link that saves what `make()` gives (a string or bytes) as `name`, made when clicked. */
function downloadLink(label, name, make, type) {
  const a = document.createElement("a");
  a.textContent = label;
  a.href = "#";
  a.onclick = (ev) => {
    ev.preventDefault();
    let content;
    try {
      content = make();
    } catch (e) {
      message(`error: ${current.name}: ${e}`);
      return;
    }
    const save = document.createElement("a");
    save.download = name;
    save.href = URL.createObjectURL(new Blob([content], { type }));
    save.click();
    setTimeout(() => URL.revokeObjectURL(save.href), 1000);
  };
  return a;
}

function base(name) {
  return name.replace(/^.*[\\/]/, "");
}

/** Downloads: the JSON records, the listing, each part. */
function downloads() {
  const { opened, name } = current;
  const list = $("downloads");
  list.replaceChildren();
  const stem = base(name);
  const json = "application/json";
  const add = (label, file, make, type) => list.append(downloadLink(label, file, make, type));
  add("info.json", `${stem}.info.json`, () => opened.info_record(), json);
  add("disasm.json", `${stem}.disasm.json`, () => opened.disasm_record(JSON.stringify(options)), json);
  add("validate.json", `${stem}.validate.json`, () => opened.validate_records(), json);
  add("listing.txt", `${stem}.txt`, () => opened.listing(JSON.stringify(options)), "text/plain");
  for (const part of JSON.parse(opened.parts())) {
    add(`${part.name}`, `${stem}.${part.name}`, () => opened.part(part.name, "{}"), "application/octet-stream");
  }
}

/** The findings of `validate`, one line each, and the closing counts. */
function findings() {
  const list = $("findings");
  list.replaceChildren();
  for (const line of current.opened.validate_records().split("\n")) {
    if (!line) continue;
    const r = JSON.parse(line);
    if (r.type === "finding") {
      const li = document.createElement("li");
      li.className = r.severity;
      li.textContent = `${r.severity} at 0x${(r.offset ?? 0).toString(16)}: ${r.message}`;
      list.append(li);
    } else if (r.type === "validate") {
      $("findings-summary").textContent = `validate: ${r.errors} errors, ${r.warnings} warnings`;
    }
  }
}

/** A form control for one switch, named as the CLI's long option. */
function control(label, input) {
  const l = document.createElement("label");
  l.append(input, " ", label);
  return l;
}

function select(name, choices, chosen) {
  const s = document.createElement("select");
  s.name = name;
  for (const [value, text] of choices) {
    const o = document.createElement("option");
    o.value = value;
    o.textContent = text;
    o.selected = value === chosen;
    s.append(o);
  }
  return s;
}

/** The switches that apply to this file, as controls that re-render the listing. */
function controls() {
  const { opened, name } = current;
  const s = JSON.parse(opened.switches());
  const form = $("controls");
  form.replaceChildren();
  if (s.programs !== null && s.programs !== undefined) {
    const choices = [["", "all programs"]];
    for (let i = 0; i < s.programs; i++) choices.push([String(i), `--dvle ${i}`]);
    form.append(control("program", select("dvle", choices, "")));
  }
  if (s.fxc) {
    form.append(control("fxc", select("fxc", s.fxc_names.map((n) => [n, n]), "auto")));
  }
  for (const sw of s.switches) {
    const box = document.createElement("input");
    box.type = "checkbox";
    box.name = sw;
    form.append(control(`--${sw}`, box));
  }
  for (const v of s.variations) {
    const span = document.createElement("span");
    span.className = "variation";
    span.append(`program "${v.program}": `);
    const pickers = v.macros.map((m) =>
      select(m.name, m.values.map((x) => [x, `${m.name}=${x}`]), m.default ?? m.values[0]));
    span.append(...pickers);
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = "open this variation";
    open.onclick = () => {
      const settings = Object.fromEntries(pickers.map((p) => [p.name, p.value]));
      try {
        const gsh = opened.part(v.program, JSON.stringify(settings));
        const text = pickers.map((p) => `${p.name}=${p.value}`).join(" ");
        openBytes(gsh, `${base(name)}:${v.program}${text ? ` (${text})` : ""}.gsh`);
      } catch (e) {
        message(`error: ${name}: ${e}`);
      }
    };
    span.append(open);
    form.append(span);
  }
  form.onchange = (ev) => {
    if (ev.target.closest(".variation")) return;
    options = {};
    for (const el of form.elements) {
      if (el.type === "checkbox") {
        if (el.checked) options[el.name] = true;
      } else if (el.name === "dvle" && el.value !== "") {
        options.dvle = Number(el.value);
      } else if (el.name === "fxc" && el.value !== "auto") {
        options.fxc = el.value;
      }
    }
    render();
  };
}

/** The viewer page of the file with the switches set, and the downloads that follow them. */
function render() {
  const { opened, name } = current;
  document.body.dataset.state = "busy";
  try {
    const t = performance.now();
    const page = opened.view(JSON.stringify(options));
    document.body.dataset.viewMs = (performance.now() - t).toFixed(1);
    $("view").srcdoc = page;
    message("");
  } catch (e) {
    // A switch the file does not take: the CLI's usage error.
    message(`error: ${name}: ${e}`);
  }
  downloads();
  document.body.dataset.state = "ready";
}

/** The shader binaries `scan` finds in these bytes, each openable; none shown for a file that
 * is one shader binary and holds no other. */
function finds(data, name, whole) {
  const records = scan(data, name).split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const list = $("findlist");
  list.replaceChildren();
  const inside = records.filter((r) => !(whole && r.location === "-"));
  $("finds").hidden = inside.length === 0;
  records.forEach((r, i) => {
    if (whole && r.location === "-") return;
    const li = document.createElement("li");
    li.textContent = `${r.location} ${r.format} ${(r.stages || []).join(",")} ${r.size} bytes ${r.hash}`;
    const open = document.createElement("button");
    open.type = "button";
    open.textContent = "open";
    open.onclick = () => openBytes(find_bytes(data, i), `${base(name)}@${r.location}`);
    li.append(open);
    list.append(li);
  });
}

/** Show `data` (a Uint8Array) as the file `name`. The time from the bytes in hand to the
 * viewer shown is kept in `body[data-shown-ms]` (the figure the README quotes). */
function openBytes(data, name) {
  const started = performance.now();
  options = {};
  let opened;
  try {
    opened = new Opened(data, name);
  } catch (e) {
    message(`error: ${name}: ${e}`);
    $("file-panel").hidden = true;
    current = null;
    finds(data, name, false);
    document.body.dataset.state = "ready";
    return;
  }
  if (current) current.opened.free();
  current = { opened, data, name, started };
  $("file-panel").hidden = false;
  $("title").textContent = `${name}: ${opened.format()}, ${data.length} bytes`;
  $("info").textContent = opened.info();
  findings();
  controls();
  finds(data, name, true);
  render();
}

async function openFile(file) {
  openBytes(new Uint8Array(await file.arrayBuffer()), file.name);
}

async function main() {
  await init();
  $("view").onload = () => {
    if (current && current.started !== null) {
      document.body.dataset.shownMs = (performance.now() - current.started).toFixed(1);
      current.started = null;
    }
  };
  $("file").onchange = (ev) => ev.target.files[0] && openFile(ev.target.files[0]);
  document.addEventListener("dragover", (ev) => {
    ev.preventDefault();
    document.body.classList.add("dragging");
  });
  document.addEventListener("dragleave", () => document.body.classList.remove("dragging"));
  document.addEventListener("drop", (ev) => {
    ev.preventDefault();
    document.body.classList.remove("dragging");
    const file = ev.dataTransfer.files[0];
    if (file) openFile(file);
  });
  const src = new URLSearchParams(location.search).get("src");
  if (src) {
    const url = new URL(src, location.href);
    if (url.origin !== location.origin) {
      message(`?src=${src}: only a file on this server is opened (nothing is fetched from elsewhere)`);
    } else {
      const response = await fetch(url);
      if (response.ok) {
        openBytes(new Uint8Array(await response.arrayBuffer()), decodeURIComponent(url.pathname.replace(/^.*\//, "")));
      } else {
        message(`?src=${src}: HTTP ${response.status}`);
      }
    }
  }
  document.body.dataset.state = "ready";
}

main();
