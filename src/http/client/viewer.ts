// Entry of /assets/js/viewer.js: mounts a viewer on each [data-viewer]
// element, from its data-replay URL (a match page, `arbiter view`), or from
// ?replay=<url> on the standalone page. The first round shown comes from
// #round=N, else ?round=N. A page with a [data-viewer-file] input (/view) also
// opens a file picked there or dropped anywhere on the page; a new replay
// replaces the one shown.
//
// State for tests and scripts, on the [data-viewer] element: data-ready="true"
// once a replay is shown, data-error="true" while an error is shown (in its
// role="alert" element), data-round = the round shown.

import { fetchReplay, readReplayFile } from './viewer/load.ts';
import type { Replay } from '../../sdk/viewer/game-view.ts';
import { h } from './viewer/dom.ts';
import { Viewer, loadGameView } from './viewer/viewer.ts';
import { wordsFor } from '../../sdk/viewer/lang.ts';

/** The page's own messages in its language (a replay's own errors stay as the loader words them). */
const W = wordsFor({
  en: {
    couldNotShow: (why: string) => `Could not show the replay: ${why}`,
    stillPrevious: 'Still showing the previous replay.',
    reading: (name: string) => `Reading ${name}…`,
    oneAtATime: (n: number) => `Drop one replay at a time (got ${n} files).`,
    loading: 'Loading the replay…',
    noReplayYet: 'No replay yet: open a replay file above, or drop one on this page.',
    noReplay: 'No replay to show: this viewer names none.',
    showResult: 'Show the final result',
    resultHeld: 'The final result shows when the replay reaches its end.',
  },
  ca: {
    couldNotShow: (why: string) => `No s'ha pogut mostrar la repetició: ${why}`,
    stillPrevious: 'Encara es mostra la repetició anterior.',
    reading: (name: string) => `Llegint ${name}…`,
    oneAtATime: (n: number) => `Deixa anar una sola repetició cada vegada (n'hi ha ${n}).`,
    loading: 'Carregant la repetició…',
    noReplayYet: 'Encara cap repetició: obre’n un fitxer a dalt, o deixa’l anar en aquesta pàgina.',
    noReplay: 'No hi ha cap repetició per mostrar: aquest visor no n’indica cap.',
    showResult: 'Mostra el resultat final',
    resultHeld: 'El resultat final es mostra quan la repetició arriba al final.',
  },
  es: {
    couldNotShow: (why: string) => `No se ha podido mostrar la repetición: ${why}`,
    stillPrevious: 'Todavía se muestra la repetición anterior.',
    reading: (name: string) => `Leyendo ${name}…`,
    oneAtATime: (n: number) => `Suelta una sola repetición cada vez (hay ${n}).`,
    loading: 'Cargando la repetición…',
    noReplayYet: 'Todavía ninguna repetición: abre un fichero arriba, o suéltalo en esta página.',
    noReplay: 'No hay ninguna repetición que mostrar: este visor no indica ninguna.',
    showResult: 'Muestra el resultado final',
    resultHeld: 'El resultado final se muestra cuando la repetición llega al final.',
  },
});

interface Mount {
  host: HTMLElement;
  alert: HTMLElement;
  status: HTMLElement;
  viewer: Viewer | null;
  /** Bumped by every load: a slow earlier load must not replace a later one. */
  loads: number;
  /** Whether this viewer keeps #round=N in the address. */
  hash: boolean;
}

function prepare(host: HTMLElement, hash: boolean): Mount {
  host.replaceChildren();
  const alert = h('p', { class: 'viewer-alert', role: 'alert', 'data-viewer-alert': '' });
  const status = h('p', { class: 'viewer-status', role: 'status', 'data-viewer-status': '' });
  host.append(alert, status);
  return { host, alert, status, viewer: null, loads: 0, hash };
}

function showError(m: Mount, message: string | null) {
  m.alert.textContent = message ?? '';
  if (message) m.host.dataset.error = 'true';
  else delete m.host.dataset.error;
}

function roundFromAddress(): number | null {
  const fromHash = /(?:^#|&)round=(\d+)/.exec(location.hash)?.[1];
  const fromQuery = new URLSearchParams(location.search).get('round');
  const text = fromHash ?? fromQuery;
  return text !== null && /^\d+$/.test(text) ? Number(text) : null;
}

/** Keeps #round=N current without adding history entries. */
function writeHashRound(round: number) {
  const hash = `#round=${round}`;
  // An address without a round already means round 0: leave it clean.
  if (round === 0 && !/(?:^#|&)round=/.test(location.hash)) return;
  if (location.hash !== hash) history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`);
}

async function show(m: Mount, get: () => Promise<Replay>, opts: { round: number | null; source?: string; busy: string }) {
  const load = ++m.loads;
  m.host.setAttribute('aria-busy', 'true');
  delete m.host.dataset.ready;
  m.status.textContent = opts.busy;
  try {
    const replay = await get();
    const view = await loadGameView(replay.game);
    if (load !== m.loads) return;
    m.viewer?.destroy();
    m.viewer = null;
    showError(m, null);
    m.viewer = new Viewer(m.host, replay, view, {
      source: opts.source,
      onSettle: m.hash ? writeHashRound : undefined,
      onDrawError: (message) => showError(m, message),
    });
    if (opts.round !== null) m.viewer.seek(m.viewer.indexOfRound(opts.round));
    m.status.textContent = '';
  } catch (err) {
    if (load !== m.loads) return;
    const e = err as Error;
    // Our own load errors are sentences for the user; anything else is a fault worth a console trace.
    if (e.name !== 'ReplayLoadError') console.error(e);
    showError(m, W.couldNotShow(e.message));
    m.status.textContent = m.viewer ? W.stillPrevious : '';
  } finally {
    if (load === m.loads) {
      m.host.removeAttribute('aria-busy');
      if (m.viewer) m.host.dataset.ready = 'true';
    }
  }
}

function wireFiles(m: Mount, input: HTMLInputElement | null) {
  const open = (file: File) => {
    void show(m, () => readReplayFile(file), { round: null, source: file.name, busy: W.reading(file.name) });
  };
  input?.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file) open(file);
    input.value = ''; // picking the same file again reloads it
  });
  // Dropping a file anywhere on the page opens it.
  const hasFiles = (e: DragEvent) => e.dataTransfer?.types.includes('Files') ?? false;
  let depth = 0;
  document.addEventListener('dragenter', (e) => {
    if (!hasFiles(e)) return;
    depth++;
    document.body.classList.add('viewer-dropping');
  });
  document.addEventListener('dragleave', (e) => {
    if (!hasFiles(e)) return;
    depth = Math.max(0, depth - 1);
    if (depth === 0) document.body.classList.remove('viewer-dropping');
  });
  document.addEventListener('dragover', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
  });
  document.addEventListener('drop', (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('viewer-dropping');
    const files = e.dataTransfer?.files;
    if (!files || files.length === 0) return;
    if (files.length > 1) showError(m, W.oneAtATime(files.length));
    else open(files[0]!);
  });
}

/**
 * A match page's final result (#match-result) is held back while its replay
 * has not reached the end, so the ranks do not show under a match still being
 * watched: a button shows it at once, and reaching the last round shows it.
 * (Without JavaScript there is no viewer, and the table is simply there.)
 */
function holdResult(host: HTMLElement) {
  const table = document.getElementById('match-result');
  const held = (table?.closest('.table-wrap') as HTMLElement | null) ?? table;
  if (!table || !held || held.hidden) return;
  const atEnd = () => host.dataset.round !== undefined && host.dataset.round === host.dataset.rounds;
  if (atEnd()) return;
  held.hidden = true;
  const button = h('button', { type: 'button', class: 'secondary', id: 'show-result', 'aria-controls': table.id }, W.showResult);
  const note = h('p', { class: 'hint', id: 'result-held' }, W.resultHeld, ' ', button);
  held.before(note);
  const observer = new MutationObserver(() => {
    if (atEnd()) reveal();
  });
  const reveal = () => {
    observer.disconnect();
    held.hidden = false;
    note.remove();
  };
  button.addEventListener('click', reveal);
  observer.observe(host, { attributes: true, attributeFilter: ['data-round'] });
}

function start() {
  const hosts = [...document.querySelectorAll<HTMLElement>('[data-viewer]')];
  const params = new URLSearchParams(location.search);
  const fileInput = document.querySelector<HTMLInputElement>('input[type="file"][data-viewer-file]');
  for (const [i, host] of hosts.entries()) {
    // The address can only speak for one viewer: the page's only one.
    const m = prepare(host, hosts.length === 1);
    if (i === 0 && fileInput) wireFiles(m, fileInput);
    if (m.hash) {
      window.addEventListener('hashchange', () => {
        const round = roundFromAddress();
        if (round !== null && m.viewer) m.viewer.seek(m.viewer.indexOfRound(round));
      });
    }
    const url = host.dataset.replay ?? params.get('replay');
    if (url) {
      void show(m, () => fetchReplay(url), { round: m.hash ? roundFromAddress() : null, busy: W.loading }).then(() => {
        if (host.dataset.replay && m.viewer) holdResult(host);
      });
    } else if (i === 0 && fileInput) m.status.textContent = W.noReplayYet;
    else showError(m, W.noReplay);
  }
}

start();
