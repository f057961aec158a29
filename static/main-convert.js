// The layout conversion explorer's entry, on /convert and its embed.
import { start } from './convert.js';

start();
