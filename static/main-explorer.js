// The layout explorer's entry, on its page, its embed and the tour's
// layout steps. Pages work without it; it makes the explorer live.
import { start } from './explorer.js';

start();
