// The room bar's entry on a page without an explorer (a tour's text-only
// step, the error page): the explorers run their room themselves, through
// their edit client (client.js), on every page with a #picture; a second
// room client there would present (or follow) on a socket of its own,
// and its state, which never has the explorer's step or focus, could be
// the room's. Module scripts run once the document is parsed, so the
// explorers are there to be seen.
import { standalone } from './rooms.js';

if (!document.getElementById('picture')) standalone();
