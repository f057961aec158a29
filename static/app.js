// stridescope: the page's ES module. Pages work without it; it makes the
// explorer live.
import { start } from './explorer.js';

if (document.getElementById('explorer')) start();
