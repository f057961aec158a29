// stridescope: the entry of pages rendered before each page had its own
// (main-*.js); kept so they still work. It loads only the module the
// page uses.
if (document.getElementById('explorer')) import('./explorer.js').then((m) => m.start());
else if (document.getElementById('slice')) import('./slice.js').then((m) => m.start());
else if (document.getElementById('room-bar')) import('./rooms.js').then((m) => m.standalone());
