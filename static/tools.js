// stridescope: the explorers' DirectML tools panel. The DxDispatch link
// follows the page's state (the URL the explorer keeps current), and the
// import box asks /api/v1/import, then opens what it found.

import { langSuffix, shownQuery } from './live.js';
import { t } from './words.js';

const $ = (s, r = document) => r.querySelector(s);

// bodyOf turns what was pasted into an import request: JSON that names
// its format as is, a DxDispatch model (it has dispatchables) wrapped,
// anything else as PyTorch's printed text.
export function bodyOf(text) {
  try {
    const v = JSON.parse(text);
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (['dxdispatch', 'onnx', 'torch', 'numpy', 'text'].some((k) => k in v)) return v;
      if ('dispatchables' in v) return { dxdispatch: v };
    }
  } catch { /* not JSON: PyTorch's text */ }
  return { text };
}

function list(items, render) {
  const ul = document.createElement('ul');
  for (const it of items) { const li = document.createElement('li'); render(li, it); ul.append(li); }
  return ul;
}

export function start() {
  const link = $('[data-testid=dx-download]');
  if (link) {
    // The explorer changes the URL as it is edited: take the state it
    // shows (the last valid one when the typed one has errors) when clicked.
    const follow = () => { const q = shownQuery(); link.href = link.dataset.dxBase + (q ? '?' + q : ''); };
    link.addEventListener('click', follow);
    link.addEventListener('focus', follow);
  }
  const form = $('[data-testid=import-form]');
  if (!form) return;
  const out = $('[data-testid=import-result]', form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = form.elements.text.value.trim();
    if (!text) { out.textContent = t('js.import.empty'); return; }
    out.textContent = t('js.import.busy');
    let res, body;
    try {
      // The errors and notes in the page's language, whatever the cookie says.
      const lang = document.documentElement.lang;
      res = await fetch('/api/v1/import' + (lang && lang !== 'en' ? '?lang=' + encodeURIComponent(lang) : ''), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(bodyOf(text)) });
      body = await res.json();
    } catch (err) {
      out.textContent = t('js.import.unreached', { error: err.message });
      return;
    }
    out.replaceChildren();
    if (!res.ok) {
      const p = document.createElement('p');
      p.textContent = t('js.import.failed');
      out.append(p, list(body.errors || [], (li, v) => {
        if (v.field) { const c = document.createElement('code'); c.textContent = v.field; li.append(c, ': '); }
        li.append(v.message);
      }));
      return;
    }
    // The explorer in the language the URL asked for, as the links say.
    const url = body.url + langSuffix();
    if (!body.notes.length) { location.assign(url); return; }
    // Notes say what was converted (an offset goes into the binding): read
    // them before leaving.
    const a = document.createElement('a');
    a.href = url; a.textContent = t('import.open'); a.dataset.testid = 'import-open';
    out.append(list(body.notes, (li, n) => { li.textContent = n; }), a);
    a.focus();
  });
}

start();
