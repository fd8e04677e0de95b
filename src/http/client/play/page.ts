// The play page's script (/assets/play/<game>.js, bundled with the game's
// engine): reads the bots (a file picked, dropped or pasted: TypeScript,
// JavaScript or C++; built-ins from the server), has the judge compile them (POST /api/play/compile: the same
// compile as the judge's, nothing kept), plays the match here, then shows it
// in the replay viewer with each bot's log of the shown round beside it.
//
// State for tests and scripts, on the [data-play] form: data-state =
// "running" | "done" | "error"; on [data-play-result]: data-round = the round
// whose logs are shown.

import type { AnyGame } from '../../../sdk/types.ts';
import type { CompiledSeat } from '../../../match/types.ts';
import type { Replay } from '../../../sdk/viewer/game-view.ts';
import { Viewer, loadGameView } from '../viewer/viewer.ts';
import { wordsFor } from '../../../sdk/viewer/lang.ts';
import { roundShown } from '../../../sdk/replay-format.ts';
import { languageOf } from '../../../sandbox/languages/index.ts';
import { playInBrowser, type BrowserMatch, type PlaySeat } from './match.ts';

/** Every sentence this script shows, in the page's language (<html lang>, as the viewer's words). */
const TEXT = wordsFor({
  en: {
    noBot: 'Choose your bot: pick or drop a file, or paste its code.',
    oneFile: (n: number) => `Drop one file at a time (got ${n}).`,
    tooLarge: (name: string, max: number) => `${name} is larger than ${Math.round(max / 1024)} KiB, the judge's limit for a bot file.`,
    noFile: (seat: number) => `Player ${seat}: choose the file to play.`,
    badSeed: 'The seed is a whole number from 0 to 2147483647.',
    reading: 'Reading and compiling the bots…',
    loading: 'Starting the bots…',
    round: (r: number, total: number) => `Playing round ${r} of ${total}…`,
    done: (seed: number) => `Match played in this browser (seed ${seed}). Only a local try: nothing was sent to the judge's rankings.`,
    failed: (why: string) => `The match could not be played: ${why}`,
    pasted: (name: string) => `Pasted code (as ${name})`,
    chosen: (name: string) => `Your bot: ${name}`,
    logsOf: (round: number) => (round === 0 ? 'Logs while loading (round 0)' : `Logs of round ${round}`),
    nothing: '(nothing written in this round)',
    frozen: (round: number, reason: string) => `frozen in round ${round} (${reason})`,
    source: 'played in this browser',
  },
  ca: {
    noBot: 'Tria el teu jugador: escull o deixa anar un fitxer, o enganxa’n el codi.',
    oneFile: (n: number) => `Deixa anar un sol fitxer cada vegada (n’hi ha ${n}).`,
    tooLarge: (name: string, max: number) => `${name} fa més de ${Math.round(max / 1024)} KiB, el límit del jutge per a un fitxer de jugador.`,
    noFile: (seat: number) => `Jugador ${seat}: tria el fitxer que ha de jugar.`,
    badSeed: 'La llavor és un nombre enter de 0 a 2147483647.',
    reading: 'Llegint i compilant els jugadors…',
    loading: 'Engegant els jugadors…',
    round: (r: number, total: number) => `Jugant la ronda ${r} de ${total}…`,
    done: (seed: number) =>
      `Partida jugada en aquest navegador (llavor ${seed}). Només és una prova local: no s’ha enviat res a les classificacions del jutge.`,
    failed: (why: string) => `No s’ha pogut jugar la partida: ${why}`,
    pasted: (name: string) => `Codi enganxat (com a ${name})`,
    chosen: (name: string) => `El teu jugador: ${name}`,
    logsOf: (round: number) => (round === 0 ? 'Registres durant la càrrega (ronda 0)' : `Registres de la ronda ${round}`),
    nothing: '(no ha escrit res en aquesta ronda)',
    frozen: (round: number, reason: string) => `congelat a la ronda ${round} (${reason})`,
    source: 'jugada en aquest navegador',
  },
  es: {
    noBot: 'Elige tu jugador: escoge o suelta un fichero, o pega su código.',
    oneFile: (n: number) => `Suelta un solo fichero cada vez (hay ${n}).`,
    tooLarge: (name: string, max: number) => `${name} ocupa más de ${Math.round(max / 1024)} KiB, el límite del juez para un fichero de jugador.`,
    noFile: (seat: number) => `Jugador ${seat}: elige el fichero que debe jugar.`,
    badSeed: 'La semilla es un número entero de 0 a 2147483647.',
    reading: 'Leyendo y compilando los jugadores…',
    loading: 'Arrancando los jugadores…',
    round: (r: number, total: number) => `Jugando la ronda ${r} de ${total}…`,
    done: (seed: number) =>
      `Partida jugada en este navegador (semilla ${seed}). Solo es una prueba local: no se ha enviado nada a las clasificaciones del juez.`,
    failed: (why: string) => `No se ha podido jugar la partida: ${why}`,
    pasted: (name: string) => `Código pegado (como ${name})`,
    chosen: (name: string) => `Tu jugador: ${name}`,
    logsOf: (round: number) => (round === 0 ? 'Registros durante la carga (ronda 0)' : `Registros de la ronda ${round}`),
    nothing: '(no ha escrito nada en esta ronda)',
    frozen: (round: number, reason: string) => `congelado en la ronda ${round} (${reason})`,
    source: 'jugada en este navegador',
  },
});

/** Pasted text is named as its language names a file (MyBot.ts; C++, which has `#define PLAYER_NAME`, the course's AIMyBot.cc). */
const pastedName = (source: string) => languageOf(source).defaultFilename('MyBot');

const $ = <T extends Element>(root: ParentNode, sel: string) => root.querySelector<T>(sel);

/** The answer's message of a failed request, or its status. */
async function failure(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { message?: string };
    if (body.message) return body.message;
  } catch {
    /* not JSON */
  }
  return `HTTP ${res.status}`;
}

async function getJson<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, init);
  if (!res.ok) throw new Error(await failure(res));
  return (await res.json()) as T;
}

/** The judge's compile; a C++ file against this game's headers (the server answers 401 when nobody is signed in). */
function compile(game: string, filename: string, source: string): Promise<CompiledSeat> {
  return getJson<CompiledSeat>('/api/play/compile', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ filename, source, game }),
  });
}

export function mountPlay(game: AnyGame) {
  const form = $<HTMLFormElement>(document, 'form[data-play]');
  if (!form) return;
  const maxBytes = Number(form.dataset.maxBytes);
  const fileInput = $<HTMLInputElement>(form, '[data-play-file]')!;
  const pasteArea = $<HTMLTextAreaElement>(form, '[data-play-paste]')!;
  const chosenLine = $<HTMLElement>(form, '[data-play-chosen]')!;
  const seedInput = $<HTMLInputElement>(form, '[data-play-seed]')!;
  const button = $<HTMLButtonElement>(form, 'button[type="submit"]')!;
  const status = $<HTMLElement>(document, '[data-play-status]')!;
  const alert = $<HTMLElement>(document, '[data-play-alert]')!;
  const result = $<HTMLElement>(document, '[data-play-result]')!;
  const viewerHost = $<HTMLElement>(result, '[data-play-viewer]')!;
  const logs = $<HTMLElement>(result, '[data-play-logs]')!;
  const download = $<HTMLAnchorElement>(result, '[data-play-download]')!;

  /** The bot file picked or dropped, until code is pasted. */
  let yourFile: File | null = null;
  let viewer: Viewer | null = null;
  let observer: MutationObserver | null = null;
  let downloadUrl: string | null = null;

  const showAlert = (message: string) => {
    alert.textContent = message;
    if (message) form.dataset.state = 'error';
  };

  const choose = (file: File) => {
    yourFile = file;
    pasteArea.value = '';
    chosenLine.textContent = TEXT.chosen(file.name);
    showAlert('');
  };
  fileInput.addEventListener('change', () => {
    const f = fileInput.files?.[0];
    if (f) choose(f);
  });
  pasteArea.addEventListener('input', () => {
    if (pasteArea.value.trim()) {
      yourFile = null;
      fileInput.value = '';
      chosenLine.textContent = TEXT.pasted(pastedName(pasteArea.value));
    } else chosenLine.textContent = '';
  });
  // A file dropped anywhere on the form is your bot.
  form.addEventListener('dragover', (e) => {
    if (!e.dataTransfer?.types.includes('Files')) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = 'copy';
  });
  form.addEventListener('drop', (e) => {
    const files = e.dataTransfer?.files;
    if (!files || files.length === 0) return;
    e.preventDefault();
    if (files.length > 1) showAlert(TEXT.oneFile(files.length));
    else choose(files[0]!);
  });
  // An opponent "from a file" shows its file input.
  for (const select of form.querySelectorAll<HTMLSelectElement>('select[data-seat]')) {
    const input = $<HTMLInputElement>(form, `input[data-seat-file="${select.dataset.seat}"]`)!;
    const sync = () => {
      input.hidden = select.value !== 'file';
    };
    select.addEventListener('change', sync);
    sync();
  }

  async function readText(file: File): Promise<string> {
    if (file.size > maxBytes) throw new Error(TEXT.tooLarge(file.name, maxBytes));
    return file.text();
  }

  /** Your bot as filename and source. */
  async function yourBot(): Promise<{ filename: string; source: string }> {
    if (yourFile) return { filename: yourFile.name, source: await readText(yourFile) };
    const source = pasteArea.value;
    if (!source.trim()) throw new Error(TEXT.noBot);
    const filename = pastedName(source);
    if (new Blob([source]).size > maxBytes) throw new Error(TEXT.tooLarge(filename, maxBytes));
    return { filename, source };
  }

  /** The same match as the starter kit's command line (built-ins by name, files by name). */
  function commandLine(seed: number): string {
    const players = [yourFile?.name ?? pastedName(pasteArea.value)];
    for (const select of form!.querySelectorAll<HTMLSelectElement>('select[data-seat]')) {
      players.push(
        select.value === 'file' ? ($<HTMLInputElement>(form!, `input[data-seat-file="${select.dataset.seat}"]`)!.files?.[0]?.name ?? 'file') : select.value,
      );
    }
    const arg = (s: string) => (/^[\w.@%+=:,/-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
    return `node arbiter.mjs play ${players.map(arg).join(' ')} --seed ${seed} -o match.json`;
  }

  async function seats(): Promise<PlaySeat[]> {
    const files: Promise<{ filename: string; source: string }>[] = [yourBot()];
    const builtins: (string | null)[] = [null];
    for (const select of form!.querySelectorAll<HTMLSelectElement>('select[data-seat]')) {
      if (select.value === 'file') {
        const f = $<HTMLInputElement>(form!, `input[data-seat-file="${select.dataset.seat}"]`)!.files?.[0];
        if (!f) throw new Error(TEXT.noFile(Number(select.dataset.seat)));
        files.push(readText(f).then((source) => ({ filename: f.name, source })));
        builtins.push(null);
      } else {
        files.push(Promise.resolve({ filename: '', source: '' }));
        builtins.push(select.value);
      }
    }
    // One compile at a time: the server takes one per client at once (a second is refused with 429).
    let turn: Promise<unknown> = Promise.resolve();
    const inTurn = (filename: string, source: string) => {
      const run = turn.then(() => compile(game.id, filename, source));
      turn = run.catch(() => {});
      return run;
    };
    return Promise.all(
      files.map(async (file, i) => {
        const builtin = builtins[i];
        if (builtin) return getJson<PlaySeat>(`/api/play/${game.id}/builtins/${encodeURIComponent(builtin)}`);
        const { filename, source } = await file;
        return { filename, source, compiled: await inTurn(filename, source) };
      }),
    );
  }

  function showLogs(match: BrowserMatch, replay: Replay, round: number) {
    result.dataset.round = String(round);
    const heading = $<HTMLElement>(logs, '[data-play-log-round]')!;
    heading.textContent = TEXT.logsOf(round);
    for (const [p, player] of replay.players.entries()) {
      const pre = $<HTMLElement>(logs, `[data-play-log="${p}"]`)!;
      const name = $<HTMLElement>(logs, `[data-play-log-name="${p}"]`)!;
      const frozen =
        player.frozenRound !== null && player.frozenRound <= round ? ` · ${TEXT.frozen(roundShown(player.frozenRound), player.frozenReason ?? '')}` : '';
      name.textContent = `${player.name}${frozen}`;
      const text = match.roundLogs[p]!.get(round) ?? '';
      pre.textContent = text || TEXT.nothing;
      pre.classList.toggle('muted', !text);
    }
  }

  async function show(match: BrowserMatch) {
    const replay: Replay = match.replay;
    const view = await loadGameView(replay.game);
    observer?.disconnect();
    viewer?.destroy();
    result.hidden = false;
    viewer = new Viewer(viewerHost, replay, view, { source: TEXT.source });
    viewerHost.dataset.ready = 'true';
    showLogs(match, replay, replay.rounds[0]!.round);
    // The logs follow the round the viewer shows, however it got there.
    observer = new MutationObserver(() => {
      const r = Number(viewerHost.dataset.round);
      if (Number.isInteger(r) && String(r) !== result.dataset.round) showLogs(match, replay, r);
    });
    observer.observe(viewerHost, { attributes: true, attributeFilter: ['data-round'] });
    if (downloadUrl) URL.revokeObjectURL(downloadUrl);
    downloadUrl = URL.createObjectURL(new Blob([JSON.stringify(replay)], { type: 'application/json' }));
    download.href = downloadUrl;
    download.download = `${game.id}-seed-${replay.seed}.json`;
  }

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });

  async function run() {
    const seed = Number(seedInput.value);
    if (!/^\d+$/.test(seedInput.value.trim()) || seed > 0x7fffffff) return showAlert(TEXT.badSeed);
    showAlert('');
    button.disabled = true;
    form!.dataset.state = 'running';
    form!.setAttribute('aria-busy', 'true');
    try {
      status.textContent = TEXT.reading;
      const [played, prelude] = await Promise.all([
        seats(),
        fetch(`/api/play/${game.id}/prelude.js`).then(async (r) => {
          if (!r.ok) throw new Error(await failure(r));
          return r.text();
        }),
      ]);
      status.textContent = TEXT.loading;
      let shown = 0;
      const match = await playInBrowser(game, {
        seed,
        seats: played,
        prelude,
        workerUrl: '/assets/play/worker.js',
        onRound: (round, total) => {
          // A status line, not a flood of announcements: every tenth round and the last.
          if (round - shown >= 10 || round === total) {
            shown = round;
            status.textContent = TEXT.round(round, total);
          }
        },
      });
      await show(match);
      const cli = $<HTMLElement>(document, '[data-play-cli]');
      if (cli) cli.textContent = commandLine(seed);
      status.textContent = TEXT.done(seed);
      form!.dataset.state = 'done';
    } catch (err) {
      status.textContent = '';
      showAlert(TEXT.failed((err as Error).message));
      if ((err as Error).name !== 'Error') console.error(err);
    } finally {
      button.disabled = false;
      form!.removeAttribute('aria-busy');
    }
  }
}
