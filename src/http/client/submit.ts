// Entry of /assets/js/submit.js (the submit page): dropping a file on the drop
// zone puts it into the form's file input (through a DataTransfer), says which
// file is chosen, warns early about a file over the size cap, and stops a
// second submit while the first is on its way; a C++ file is compiled before
// the server answers, so while it is on its way the page counts the seconds.
// The form works without it.

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

const form = document.getElementById('submit-form') as HTMLFormElement | null;
const zone = document.getElementById('dropzone');
const input = document.getElementById('f-file') as HTMLInputElement | null;
const status = document.getElementById('dropzone-status');

function describe(file: File | undefined) {
  if (!status || !input) return;
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

if (form && zone && input) {
  zone.classList.add('droppable');
  input.addEventListener('change', () => describe(input.files?.[0]));
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
  form.addEventListener('submit', (e) => {
    const button = document.getElementById('submit-button') as HTMLButtonElement | null;
    if (form.dataset.sending === 'true') {
      e.preventDefault();
      return;
    }
    form.dataset.sending = 'true';
    if (button) button.textContent = W.submitting;
    // The server compiles a C++ upload before it answers: until the next page comes, the seconds that compile has taken.
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
  });
  // Back from the next page (bfcache): the form is usable again.
  window.addEventListener('pageshow', () => {
    if (compiling !== undefined) window.clearInterval(compiling);
    compiling = undefined;
    delete form.dataset.sending;
    const button = document.getElementById('submit-button');
    if (button) button.textContent = W.submit;
  });
}
