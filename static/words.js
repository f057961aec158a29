// stridescope: the words the pages' modules show, all read from the
// page's catalog, and numbers written the page's language's way.

// t is key's text in the page's language, from the catalog the server
// embeds in <script type="application/json" id="strings"> (i18n's "js."
// keys and a few of the page's; i18n's TestScriptStringsMatchTheModules
// holds it to what the modules ask for), its {name}s filled from args.
// The modules carry no words of their own.
let strings;
function catalog() {
  if (strings === undefined) {
    try { strings = JSON.parse(document.getElementById('strings')?.textContent || '{}'); } catch { strings = {}; }
  }
  return strings;
}
export function t(key, args) {
  const s = catalog()[key] ?? key;
  return args ? s.replace(/\{(\w+)\}/g, (m, k) => (k in args ? String(args[k]) : m)) : s;
}
// hasText says whether the catalog has key's text.
export const hasText = (key) => key in catalog();

// num writes a prose number as the server does: digits alone in English,
// grouped the page's language's way otherwise (1.234, 1 234, 1,234). The
// formatter is made once (a hover writes numbers; making one is slow).
let numFormat;
export function num(n) {
  const lang = document.documentElement.lang || 'en';
  if (lang === 'en') return String(n);
  if (numFormat?.lang !== lang) numFormat = { lang, f: new Intl.NumberFormat(lang) };
  return numFormat.f.format(n);
}

// listOf is the first 8 of xs, each as f gives it, and how many more.
export function listOf(xs, f) {
  const n = xs.total ?? xs.length; // xs.total: how many in all, when xs holds the first of them
  return xs.slice(0, 8).map(f).join(', ') + (n > 8 ? t('js.more', { n: num(n - 8) }) : '');
}
