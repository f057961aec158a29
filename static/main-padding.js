// The DML_PADDING1 explorer's entry, on /padding and its embed.
import { start } from './padding.js';

start();
