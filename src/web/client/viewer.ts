// Entry of /assets/js/viewer.js: mounts a viewer on each [data-viewer]
// element, from its data-replay URL (a match page, `arbiter view`), or from
// ?replay=<url>&round=<n> on the standalone page.

import { fetchReplay } from './viewer/load.ts';
import { Viewer, loadGameView } from './viewer/viewer.ts';

async function mount(el: HTMLElement) {
  const params = new URLSearchParams(location.search);
  const url = el.dataset.replay ?? params.get('replay');
  if (!url) return;
  try {
    const replay = await fetchReplay(url);
    const view = await loadGameView(replay.game);
    const viewer = new Viewer(el, replay, view);
    viewer.seek(Number(params.get('round') ?? 0));
    el.dataset.ready = 'true';
  } catch (err) {
    el.textContent = (err as Error).message;
    el.dataset.error = 'true';
  }
}

for (const el of document.querySelectorAll<HTMLElement>('[data-viewer]')) void mount(el);
