// stridescope: the page's ES module. Pages work without it; it makes the
// explorer live.
import { start } from './explorer.js';

if (document.getElementById('explorer')) start();
else if (document.getElementById('slice')) import('./slice.js').then((m) => m.start());
else if (document.getElementById('room-bar')) import('./rooms.js').then((m) => m.standalone());
