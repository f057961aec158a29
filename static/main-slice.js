// The DML_SLICE1 explorer's entry, on /slice, its embed and the tour's
// slice steps.
import { start } from './slice.js';

start();
