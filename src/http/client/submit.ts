// Entry of /assets/js/submit.js (the submit page): dropping a file on the drop
// zone puts it into the form's file input (through a DataTransfer), says which
// file is chosen, warns early about a file over the size cap, and stops a
// second submit while the first is on its way; a C++ file is compiled before
// the server answers, so while it is on its way the page counts the seconds.
// The form is posted with fetch: a refusal's page replaces the page's content
// in place, with the chosen file still chosen (without this script the server's
// page asks to choose it again). The form works without it.

import { wordsFor } from '../../sdk/viewer/lang.ts';
import { languageOfFilename } from '../../sandbox/languages/index.ts';

/** The drop zone's words in the page's language. */
const W = wordsFor({
  en: {
    tooLarge: (name: string, size: string, max: string) => `${name} is ${size}: too large, at most ${max} KiB.`,
    chosen: (name: string, size: string) => `Chosen: ${name} (${size}).`,
    submitting: 'Submitting…',
    compiling: (name: string, s: number) => `Compiling ${name}… ${s} s`,
    submit: 'Submit',
  },
  ca: {
    tooLarge: (name: string, size: string, max: string) => `${name} fa ${size}: massa gran, com a màxim ${max} KiB.`,
    chosen: (name: string, size: string) => `Triat: ${name} (${size}).`,
    submitting: 'Enviant…',
    compiling: (name: string, s: number) => `Compilant ${name}… ${s} s`,
    submit: 'Envia',
  },
  es: {
    tooLarge: (name: string, size: string, max: string) => `${name} ocupa ${size}: demasiado grande, como máximo ${max} KiB.`,
    chosen: (name: string, size: string) => `Elegido: ${name} (${size}).`,
    submitting: 'Enviando…',
    compiling: (name: string, s: number) => `Compilando ${name}… ${s} s`,
    submit: 'Enviar',
  },
});

/** The file field's hint as first served (a refused form's page adds "choose it again", which a kept file does not need). */
const firstHint = document.getElementById('f-file-hint')?.textContent ?? null;

function describe(input: HTMLInputElement, file: File | undefined) {
  const status = document.getElementById('dropzone-status');
  if (!status) return;
  if (!file) {
    status.textContent = '';
    return;
  }
  const max = Number(input.dataset.maxBytes ?? 0);
  const size = file.size < 1024 ? `${file.size} bytes` : `${(file.size / 1024).toFixed(1)} KiB`;
  status.textContent = max > 0 && file.size > max ? W.tooLarge(file.name, size, (max / 1024).toFixed(0)) : W.chosen(file.name, size);
  status.classList.toggle('bad', max > 0 && file.size > max);
}

/** The timer of the compile's seconds, while a C++ upload is on its way. */
let compiling: number | undefined;

function stopSending(form: HTMLFormElement) {
  if (compiling !== undefined) window.clearInterval(compiling);
  compiling = undefined;
  delete form.dataset.sending;
  const button = document.getElementById('submit-button');
  if (button) button.textContent = W.submit;
}

/** The file input, bound once: it is kept across the refusals' re-renders (its chosen file with it). */
function bindInput(input: HTMLInputElement) {
  if (input.dataset.bound === 'true') return;
  input.dataset.bound = 'true';
  input.addEventListener('change', () => describe(input, input.files?.[0]));
}

function bindZone(zone: HTMLElement, input: HTMLInputElement) {
  zone.classList.add('droppable');
  for (const type of ['dragenter', 'dragover'] as const) {
    zone.addEventListener(type, (e) => {
      if (!e.dataTransfer || ![...e.dataTransfer.types].includes('Files')) return;
      e.preventDefault();
      e.dataTransfer.dropEffect = 'copy';
      zone.classList.add('over');
    });
  }
  zone.addEventListener('dragleave', (e) => {
    if (e.relatedTarget instanceof Node && zone.contains(e.relatedTarget)) return;
    zone.classList.remove('over');
  });
  zone.addEventListener('drop', (e) => {
    zone.classList.remove('over');
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    e.preventDefault();
    const dt = new DataTransfer();
    dt.items.add(file);
    input.files = dt.files;
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

/**
 * Posts the form and shows the answer: a redirect (the submission's page, or
 * the login page) is followed; a refused form's page replaces the main content,
 * the kept file input taking the place (and the error attributes) of the new one.
 */
async function send(form: HTMLFormElement, input: HTMLInputElement) {
  let res: Response;
  let text: string;
  try {
    res = await fetch(form.action, { method: 'POST', body: new FormData(form), credentials: 'same-origin', headers: { accept: 'text/html' } });
    text = await res.text();
  } catch {
    // No answer (offline, the connection dropped): the browser's own post, which shows its own error page.
    stopSending(form);
    HTMLFormElement.prototype.submit.call(form);
    return;
  }
  const doc = /text\/html/.test(res.headers.get('content-type') ?? '') ? new DOMParser().parseFromString(text, 'text/html') : null;
  const main = doc?.getElementById('main');
  const fresh = doc?.getElementById('f-file');
  if (res.redirected || !doc || !main || !fresh) {
    // Not the form again: the page the browser would have shown.
    if (res.redirected && res.ok) window.location.assign(res.url);
    else {
      document.open();
      document.write(text);
      document.close();
    }
    return;
  }
  for (const name of ['aria-invalid', 'aria-describedby']) {
    const value = fresh.getAttribute(name);
    if (value === null) input.removeAttribute(name);
    else input.setAttribute(name, value);
  }
  const hint = doc.getElementById('f-file-hint');
  if (hint && firstHint !== null && input.files?.length) hint.textContent = firstHint;
  if (compiling !== undefined) window.clearInterval(compiling);
  compiling = undefined;
  input.remove();
  const current = document.getElementById('main');
  if (!current) return;
  current.replaceChildren(...[...main.childNodes].map((n) => document.adoptNode(n)));
  document.getElementById('f-file')?.replaceWith(input);
  document.title = doc.title;
  bindForm();
  describe(input, input.files?.[0]);
  // As on a served page (autofocus): the summary is read out and the keyboard starts from it.
  document.getElementById('form-errors')?.focus();
}

function bindForm() {
  const form = document.getElementById('submit-form') as HTMLFormElement | null;
  const zone = document.getElementById('dropzone');
  const input = document.getElementById('f-file') as HTMLInputElement | null;
  if (!form || !zone || !input) return;
  bindInput(input);
  bindZone(zone, input);
  form.addEventListener('submit', (e) => {
    const button = document.getElementById('submit-button') as HTMLButtonElement | null;
    if (form.dataset.sending === 'true') {
      e.preventDefault();
      return;
    }
    form.dataset.sending = 'true';
    if (button) button.textContent = W.submitting;
    // The server compiles a C++ upload before it answers: until the answer comes, the seconds that compile has taken.
    // (On the button: the drop zone's status is a live region, which would read every second out.)
    const file = input.files?.[0];
    if (file && languageOfFilename(file.name)?.slowCompile && button) {
      const started = Date.now();
      const tick = () => {
        button.textContent = W.compiling(file.name, Math.floor((Date.now() - started) / 1000));
      };
      tick();
      compiling = window.setInterval(tick, 1000);
    }
    e.preventDefault();
    void send(form, input);
  });
}

bindForm();
// Back from the next page (bfcache): the form is usable again.
window.addEventListener('pageshow', () => {
  const form = document.getElementById('submit-form') as HTMLFormElement | null;
  if (form) stopSending(form);
});
