// stridescope "Download SVG" and "Embed": keep their links on the state
// shown. The explorers hold their state in the URL (docs/protocol.md):
// when it has errors, `last` is the last valid state, which is the one
// drawn. The server rendered the links for the first state; this follows
// every edit, reading the URL when a link is about to be used.

import { shownQuery } from './live.js';
import { t } from './words.js';

const bars = document.querySelectorAll('.share');

// query is the state shown (the server's when the URL holds none).
const query = (bar) => shownQuery(bar.dataset.shareQuery);

const withQuery = (path, q) => (q ? path + '?' + q : path);
// As the server escapes (Go's html.EscapeString), so that its text is found.
const escapeHTML = (s) => s.replace(/&/g, '&amp;').replace(/'/g, '&#39;').replace(/"/g, '&#34;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// pasted is q naming the page's language even when it is English (which
// the state leaves out): a snippet goes into a page written in one
// language, whose readers' browsers may ask for another (views.Share's
// pastedQuery).
const pasted = (q) => (/(^|&)lang=/.test(q) ? q : (q ? q + '&' : '') + 'lang=en');

function refresh(bar) {
  const q = query(bar), d = bar.dataset;
  const embed = location.origin + withQuery(d.shareEmbed, pasted(q)), svg = location.origin + withQuery(d.shareSvg, pasted(q));
  for (const a of bar.querySelectorAll('a[data-share]')) {
    const kind = a.dataset.share;
    if (kind === 'svg') a.href = withQuery(d.shareSvg, q);
    else if (kind === 'open') a.href = withQuery(d.shareOpen, q);
    else if (kind === 'embed') a.href = embed;
  }
  // The server's snippets, with their addresses replaced by the current
  // ones, and the picture's alt text by what the picture now shows (the
  // answers' alt, kept in data-share-alt).
  const scheme = bar.querySelector('select[data-share=scheme]')?.value;
  for (const snippet of bar.querySelectorAll('textarea[data-share=snippet]')) {
    const url = snippet.dataset.kind === 'svg' ? svg : embed;
    let v = snippet.defaultValue.split(escapeHTML(snippet.dataset.url)).join(escapeHTML(url));
    if (snippet.dataset.alt && d.shareAlt) v = v.split(`alt="${escapeHTML(snippet.dataset.alt)}"`).join(`alt="${escapeHTML(d.shareAlt)}"`);
    // The embed follows its frame's color-scheme (docs/api.md).
    if (scheme && snippet.dataset.kind !== 'svg') v = v.replace('style="border:0"', `style="border:0;color-scheme:${scheme}"`);
    snippet.value = v;
  }
}

for (const bar of bars) {
  // Before any use of a link: pointing at it, focusing it, clicking it
  // (the click's default action reads the href after this handler).
  for (const ev of ['pointerover', 'focusin', 'click', 'toggle']) bar.addEventListener(ev, () => refresh(bar), true);
  for (const copy of bar.querySelectorAll('button[data-share=copy]')) {
    const snippet = document.getElementById(copy.dataset.copyOf);
    if (!snippet || !navigator.clipboard) continue;
    copy.hidden = false;
    copy.addEventListener('click', async () => {
      refresh(bar);
      try {
        await navigator.clipboard.writeText(snippet.value);
        copy.textContent = t('js.copied');
      } catch {
        snippet.select();
        copy.textContent = t('js.press');
      }
      setTimeout(() => { copy.textContent = t('copy.button'); }, 2000);
    });
  }
  for (const snippet of bar.querySelectorAll('textarea[data-share=snippet]')) snippet.addEventListener('focus', () => { refresh(bar); snippet.select(); });
  const scheme = bar.querySelector('select[data-share=scheme]');
  if (scheme) {
    scheme.closest('[hidden]')?.removeAttribute('hidden');
    scheme.addEventListener('change', () => refresh(bar));
  }
  refresh(bar);
}

// Escape closes an open Embed popover, which covers part of the picture,
// wherever the focus is (on its button, in its snippets, or elsewhere on
// the page); the focus, when it was in the popover, goes back to its
// button, so that the keyboard user is where they opened it.
document.addEventListener('keydown', (e) => {
  if (e.key !== 'Escape' || e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
  const open = document.querySelectorAll('details.share-embed[open]');
  if (!open.length) return;
  e.preventDefault();
  for (const pop of open) {
    const inside = pop.contains(document.activeElement);
    pop.open = false;
    if (inside) pop.querySelector('summary')?.focus();
  }
});

// A click or tap anywhere else closes it too, as a menu would: it covers
// the picture the reader may be reaching for.
document.addEventListener('click', (e) => {
  for (const pop of document.querySelectorAll('details.share-embed[open]')) if (!pop.contains(e.target)) pop.open = false;
});

// In an embed, a link to one of the site's pages opens in a new tab: those
// pages refuse to be framed, and the reader keeps the page around the
// embed. Links the explorer handles itself (data-act), downloads,
// fragments and the embeds' own pages stay.
if (document.body.classList.contains('embed')) {
  document.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href]');
    if (!a || a.target || a.dataset.act || a.hasAttribute('download') || a.getAttribute('href').startsWith('#')) return;
    const u = new URL(a.href, location.href);
    if (u.origin === location.origin && u.pathname.startsWith('/embed/')) return;
    a.target = '_blank';
    a.relList.add('noopener');
  }, true);
}
