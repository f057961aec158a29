// stridescope's embeds tell the page that frames them how tall they are,
// so that it can size the frame to them (docs/api.md, Embeds): a message
// { type: 'stridescope:height', height } to the parent window whenever the
// document's height changes (an edit that adds a dimension, the facts
// unfolded). The message carries nothing but the height, so it goes to
// any parent; a page that does not listen loses nothing, its frame keeps
// the snippet's height.

if (window.parent !== window) {
  let sent = 0;
  const report = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === sent) return;
    sent = height;
    window.parent.postMessage({ type: 'stridescope:height', height }, '*');
  };
  new ResizeObserver(report).observe(document.documentElement);
  report();
}
