// The join and split explorer's entry, on /joinsplit and its embed.
import { start } from './join.js';

start();
