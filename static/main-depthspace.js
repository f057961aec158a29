// The depth-space explorer's entry, on /depthspace and its embed.
import { start } from './depthspace.js';

start();
