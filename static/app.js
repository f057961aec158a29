// stridescope: the page's small ES module. Pages work without it; it makes
// them live.
export {};
