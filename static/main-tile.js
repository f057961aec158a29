// The DML_TILE explorer's entry, on /tile and its embed.
import { start } from './tile.js';

start();
