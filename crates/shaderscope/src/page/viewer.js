// shaderscope viewer: the listing beside a hex view of the file, linked both ways.
// Data (file bytes in base64, dump sections and fields as [start, end, text], sorted by start
// and then longest first) comes from the JSON in #ss-data; the listing lines carry their byte
// range (data-offset, data-len) and their styled runs (data-k). Hex rows are drawn only where
// the view shows them, a block of listing lines gets its spans when it comes near the view,
// and the index of lines by bytes is made at the first click.
(function () {
  'use strict';
  const D = JSON.parse(document.getElementById('ss-data').textContent);
  const raw = atob(D.data);
  const N = raw.length;
  const bytes = new Uint8Array(N);
  for (let i = 0; i < N; i++) bytes[i] = raw.charCodeAt(i);
  const PER = 16, RH = 18, MARGIN = 32, LIMIT = 8e6;
  const $ = (id) => document.getElementById(id);
  const listing = $('listing'), hex = $('hex'), sizer = $('hexsizer'), rowsEl = $('hexrows'), status = $('status');
  const digits = Math.max(4, Math.max(1, N - 1).toString(16).length);
  const hx = (v, w) => v.toString(16).padStart(w === undefined ? digits : w, '0');
  const esc = (s) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

  // Ranges [start, end, …] sorted by start then longest first; each knows the range around it,
  // so the innermost range holding a byte is a binary search and a walk outwards.
  function Ranges(items) {
    const n = items.length, parent = new Int32Array(n), stack = [];
    for (let i = 0; i < n; i++) {
      while (stack.length && items[stack[stack.length - 1]][1] < items[i][1]) stack.pop();
      parent[i] = stack.length ? stack[stack.length - 1] : -1;
      stack.push(i);
    }
    return {
      items, parent,
      at(b) {
        let lo = 0, hi = n;
        while (lo < hi) { const m = (lo + hi) >> 1; if (items[m][0] <= b) lo = m + 1; else hi = m; }
        let i = lo - 1;
        while (i >= 0 && !(b < items[i][1])) i = parent[i];
        return i;
      },
      path(i) { const p = []; for (; i >= 0; i = parent[i]) p.unshift(i); return p; },
    };
  }
  const sections = Ranges(D.sections), fields = Ranges(D.fields);
  // Each top-level structure has a colour; what it holds shares it.
  const colour = new Int32Array(D.sections.length);
  for (let i = 0, k = 0; i < colour.length; i++) colour[i] = sections.parent[i] < 0 ? (k++ % 8) : colour[sections.parent[i]];

  // Listing lines with bytes, and the lines that show each range: made when first needed.
  let byBytes = null;
  function lineIndex() {
    if (byBytes) return byBytes;
    const items = Array.from(listing.querySelectorAll('.l[data-len]'), (el) => { const a = +el.dataset.offset; return [a, a + (+el.dataset.len), el]; });
    // (The sort is stable, so lines of one range stay in listing order.)
    items.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
    const same = new Map();
    for (const it of items) { const k = it[0] + ':' + it[1]; if (!same.has(k)) same.set(k, []); same.get(k).push(it[2]); }
    byBytes = { items, lines: Ranges(items), same };
    return byBytes;
  }

  // A line's spans from its text and runs (data-k: GAP CLASS LEN, in UTF-16 units), the
  // spans the listing page's lines have; the text stays the same.
  const painted = new WeakSet();
  function paint(block) {
    if (painted.has(block)) return;
    painted.add(block);
    for (const el of block.children) {
      const k = el.dataset.k;
      if (!k) continue;
      const t = el.textContent;
      let at = 0, h = '';
      for (const m of k.matchAll(/(\d+)([a-z]+)(\d+)/g)) {
        const s = at + (+m[1]), e = s + (+m[3]);
        h += esc(t.slice(at, s)) + '<span class="' + m[2] + '">' + esc(t.slice(s, e)) + '</span>';
        at = e;
      }
      el.innerHTML = h + esc(t.slice(at));
    }
  }
  const near = new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) { near.unobserve(e.target); paint(e.target); }
  }, { root: listing, rootMargin: '2000px 0px' });
  for (const block of listing.children) near.observe(block);
  // The first lines have their spans when the page is ready.
  if (listing.firstElementChild) paint(listing.firstElementChild);

  let sel = null, fld = null, hit = -1, current = [];

  // The hex view: a sizer as tall as every row (up to LIMIT pixels, past which the scroll
  // position is scaled), and the rows in view drawn over it.
  const rows = Math.max(1, Math.ceil(N / PER));
  const scaled = rows * RH > LIMIT;
  sizer.style.height = (scaled ? LIMIT : rows * RH) + 'px';
  const rowChars = digits + 2 + 3 * PER + 2 + PER;
  $('hexhead').textContent = (' '.repeat(digits + 2) + Array.from({ length: PER }, (_, i) => hx(i, 2) + (i === 7 ? '  ' : ' ')).join('') + ' ascii').padEnd(rowChars);
  // Room for a row, the padding and a scroll bar.
  $('hexpane').style.width = 'calc(' + rowChars + 'ch + 44px)';

  function sectionPath(b) { return sections.path(sections.at(b)).map((i) => D.sections[i][2]).join(' › '); }
  function fieldText(b) { const f = fields.at(b); return f < 0 ? '(unclaimed)' : D.fields[f][2]; }
  function tip(b) { const p = sectionPath(b); return '0x' + hx(b) + ': ' + fieldText(b) + (p ? '\nin ' + p : ''); }
  function classes(o, base) {
    let c = base;
    const s = sections.at(o);
    if (s >= 0) c += ' p' + colour[s];
    const f = fields.at(o);
    if (f < 0) c += ' u'; else if (f & 1) c += ' f1';
    if (sel && o >= sel[0] && o < sel[1]) c += ' sel';
    if (fld && o >= fld[0] && o < fld[1]) c += ' fld';
    if (o === hit) c += ' hit';
    return c;
  }
  function row(r) {
    const start = r * PER, end = Math.min(N, start + PER);
    let h = '<div class="r"><span class="o">' + hx(start) + '</span>  ', a = '';
    for (let o = start; o < start + PER; o++) {
      if (o < end) {
        const t = esc(tip(o)), c = bytes[o];
        h += '<span class="' + classes(o, 'b') + '" data-o="' + o + '" title="' + t + '">' + hx(c, 2) + '</span>';
        a += '<span class="' + classes(o, 'c') + '" data-o="' + o + '" title="' + t + '">' + (c >= 32 && c < 127 ? esc(String.fromCharCode(c)) : '.') + '</span>';
      } else h += '  ';
      h += o - start === 7 ? '  ' : ' ';
    }
    return h + ' ' + a + '</div>';
  }
  function viewRows() { return Math.ceil(hex.clientHeight / RH) + 1; }
  function render() {
    const top = hex.scrollTop, vis = viewRows();
    let first, y, last;
    if (scaled) {
      const span = Math.max(1, LIMIT - hex.clientHeight);
      first = Math.round(top / span * Math.max(0, rows - vis)); y = top; last = first + vis;
    } else {
      first = Math.max(0, Math.floor(top / RH) - MARGIN); y = first * RH; last = first + vis + 2 * MARGIN;
    }
    last = Math.min(rows, last);
    let h = '';
    for (let r = first; r < last; r++) h += row(r);
    rowsEl.style.top = y + 'px';
    rowsEl.innerHTML = h;
  }
  function showByte(b) {
    const r = Math.floor(b / PER), vis = viewRows();
    if (scaled) {
      hex.scrollTop = r / Math.max(1, rows - vis) * Math.max(1, LIMIT - hex.clientHeight);
    } else if (r * RH < hex.scrollTop || (r + 1) * RH > hex.scrollTop + hex.clientHeight) {
      hex.scrollTop = Math.max(0, r * RH - hex.clientHeight / 3);
    }
  }
  let pending = false;
  hex.addEventListener('scroll', () => {
    if (!pending) { pending = true; requestAnimationFrame(() => { pending = false; render(); }); }
  });

  function mark(els) {
    for (const el of current) el.classList.remove('cur');
    current = els;
    for (const el of current) el.classList.add('cur');
  }
  function rangeText(a, b) { return '0x' + hx(a) + '..0x' + hx(b) + ' (' + (b - a) + (b - a === 1 ? ' byte)' : ' bytes)'); }
  function say(text) { status.textContent = text; status.title = text; }

  // A listing line: its bytes.
  function selectLine(el) {
    const a = +el.dataset.offset, b = a + (+el.dataset.len);
    sel = [a, b]; fld = null; hit = -1;
    mark(lineIndex().same.get(a + ':' + b) || [el]);
    showByte(a); render();
    const p = sectionPath(a);
    say(rangeText(a, b) + '  ' + el.textContent.trim() + (p ? '  · in ' + p : ''));
  }
  // A byte: the field and structures it belongs to, and the line that shows it.
  function selectByte(o) {
    hit = o;
    const f = fields.at(o);
    fld = f < 0 ? [o, o + 1] : [D.fields[f][0], D.fields[f][1]];
    const index = lineIndex(), l = index.lines.at(o);
    if (l >= 0) {
      const it = index.items[l];
      sel = [it[0], it[1]];
      const els = index.same.get(it[0] + ':' + it[1]) || [it[2]];
      mark(els);
      els[0].scrollIntoView({ block: 'nearest' });
    } else { sel = null; mark([]); }
    render();
    const p = sectionPath(o);
    say('0x' + hx(o) + ' = 0x' + hx(bytes[o], 2) + '  ' + fieldText(o) + (p ? '  · in ' + p : ''));
  }
  function selectSection(i) {
    const s = D.sections[i];
    sel = [s[0], s[1]]; fld = null; hit = -1; mark([]);
    showByte(s[0]); render();
    say(rangeText(s[0], s[1]) + '  ' + sections.path(i).map((j) => D.sections[j][2]).join(' › '));
  }

  listing.addEventListener('click', (e) => {
    const el = e.target.closest('.l');
    if (el && el.dataset.len) selectLine(el);
  });
  listing.addEventListener('mouseover', (e) => {
    const el = e.target.closest('.l[data-len]');
    if (el && !el.title) { const a = +el.dataset.offset; el.title = rangeText(a, a + (+el.dataset.len)); }
  });
  rowsEl.addEventListener('click', (e) => {
    const el = e.target.closest('[data-o]');
    if (el) selectByte(+el.dataset.o);
  });

  // The outline of every structure, drawn when first opened.
  const outline = $('outline');
  outline.addEventListener('toggle', () => {
    const tree = $('tree');
    if (!outline.open || tree.childElementCount) return;
    let h = '';
    D.sections.forEach((s, i) => {
      const depth = sections.path(i).length - 1;
      h += '<div data-s="' + i + '">' + '  '.repeat(depth) + '<span class="sw p' + colour[i] + '"></span>' + esc(s[2]) + '  <span class="addr">' + rangeText(s[0], s[1]) + '</span></div>';
    });
    tree.innerHTML = h;
  });
  $('tree').addEventListener('click', (e) => {
    const el = e.target.closest('[data-s]');
    if (el) selectSection(+el.dataset.s);
  });

  listing.style.setProperty('--gutter', (digits + 2) + 'ch');
  render();
  say(N + ' bytes, ' + D.sections.length + ' structures, ' + D.fields.length + ' fields. Click a line or a byte.');
  document.body.dataset.ready = '1';
})();
