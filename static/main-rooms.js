// The room bar's entry on a page without an explorer (a tour's text-only
// step, the error page): the explorers run their room themselves. Module
// scripts run once the document is parsed, so the explorers are there to
// be seen.
import { standalone } from './rooms.js';

if (!document.getElementById('explorer') && !document.getElementById('slice')) standalone();
