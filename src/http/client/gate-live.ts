// Entry of /assets/js/gate-live.js (a submission's page): follows the Dummy
// gate live. On every event of /api/submissions/:id/events it fetches the
// server-rendered timeline (GET /submissions/:id/timeline) and swaps it in,
// so the page and the live view share one renderer; it announces what
// changed in the aria-live region, and stops at the verdict (then refreshes
// a while longer if gate matches are still being played). While the compile
// step runs, its line counts the seconds since the page saw it start.

import { wordsFor } from '../../sdk/viewer/lang.ts';

/** The announcements' own words; the steps' names and states are read from the page, in its language. */
const W = wordsFor({
  en: { verdict: 'Verdict', status: 'Status' },
  ca: { verdict: 'Veredicte', status: 'Estat' },
  es: { verdict: 'Veredicto', status: 'Estado' },
});

const root = document.getElementById('gate-live');
const announcer = document.getElementById('gate-announcer');
const id = root?.dataset.submissionId;

interface StepSnapshot {
  label: string;
  state: string;
  /** The state as the page words it (its badge). */
  stateText: string;
}

function snapshot(): { status: string; statusText: string; final: boolean; steps: Map<string, StepSnapshot> } {
  const state = document.getElementById('gate-state');
  const steps = new Map<string, StepSnapshot>();
  for (const li of document.querySelectorAll<HTMLElement>('#gate-timeline [data-step]')) {
    const label = li.querySelector('.gate-step-title')?.textContent || li.dataset.label || '';
    steps.set(li.dataset.step ?? '', { label, state: li.dataset.state ?? '', stateText: li.querySelector('.badge')?.textContent ?? '' });
  }
  const statusText = document.getElementById('submission-status')?.textContent || state?.dataset.status || '';
  return { status: state?.dataset.status ?? '', statusText, final: state?.dataset.final === 'true', steps };
}

const ANNOUNCED = new Set(['running', 'passed', 'failed', 'won', 'lost', 'error']);

/** When this page first saw the compile step running, and the timer that counts from then. */
let compileSeen: number | null = null;
let compileTimer: number | undefined;

/** The running compile step's seconds, after its badge (put back after every swap of the timeline). */
function showCompileTime() {
  const step = document.querySelector<HTMLElement>('#gate-timeline [data-step="compile"]');
  if (step?.dataset.state !== 'running') {
    if (compileTimer !== undefined) window.clearInterval(compileTimer);
    compileTimer = undefined;
    return;
  }
  compileSeen ??= Date.now();
  let elapsed = step.querySelector<HTMLElement>('.gate-elapsed');
  if (!elapsed) {
    elapsed = document.createElement('span');
    elapsed.className = 'muted gate-elapsed';
    step.querySelector('.badge')?.after(' ', elapsed);
  }
  elapsed.textContent = `${Math.floor((Date.now() - compileSeen) / 1000)} s`;
  compileTimer ??= window.setInterval(showCompileTime, 1000);
}

function announce(before: ReturnType<typeof snapshot>, after: ReturnType<typeof snapshot>) {
  if (!announcer) return;
  const news: string[] = [];
  for (const [key, step] of after.steps) {
    const old = before.steps.get(key);
    if (old?.state !== step.state && ANNOUNCED.has(step.state)) news.push(`${step.label}: ${step.stateText}.`);
  }
  if (after.final && !before.final) {
    const reason = document.getElementById('verdict-reason')?.textContent;
    news.push(`${W.verdict}: ${after.statusText}${reason ? `: ${reason}` : ''}.`);
  } else if (!after.final && before.status !== after.status) {
    news.push(`${W.status}: ${after.statusText}.`);
  }
  if (news.length > 0) announcer.textContent = news.join(' ');
}

if (root && id && root.dataset.final !== 'true' && 'EventSource' in window) {
  let source: EventSource | null = new EventSource(`/api/submissions/${encodeURIComponent(id)}/events`);
  let fetching: Promise<void> | null = null;
  let again = false;
  let settleChecks = 0;

  const stop = () => {
    source?.close();
    source = null;
    root.dataset.final = 'true';
    document.getElementById('gate-refresh')?.setAttribute('hidden', '');
  };

  const refresh = async (): Promise<void> => {
    const res = await fetch(`/submissions/${encodeURIComponent(id)}/timeline`, { headers: { accept: 'text/html' }, credentials: 'same-origin' });
    if (res.redirected) {
      // Logged out meanwhile (the fragment answered with the login page): stop; the Refresh link still works.
      source?.close();
      source = null;
      throw new Error('timeline: no longer logged in');
    }
    if (!res.ok) throw new Error(`timeline: HTTP ${res.status}`);
    const markup = await res.text();
    const before = snapshot();
    // Keep keyboard focus on the same control (e.g. a Watch link) across the swap.
    const focused = document.activeElement instanceof HTMLElement && root.contains(document.activeElement) ? document.activeElement.id : '';
    root.innerHTML = markup;
    if (focused) document.getElementById(focused)?.focus();
    const after = snapshot();
    announce(before, after);
    showCompileTime();
    if (after.final) {
      stop();
      // Gate matches already running at the verdict still finish and are recorded: keep their rows current a while.
      const running = [...after.steps.values()].some((step) => step.state === 'running');
      if (running && settleChecks++ < 40) setTimeout(() => void refresh().catch((err: unknown) => console.warn(err)), 3000);
    }
  };

  // Events can arrive faster than the fragment loads: one fetch at a time, and one more after it if needed.
  const schedule = () => {
    if (fetching) {
      again = true;
      return;
    }
    fetching = refresh()
      .catch((err: unknown) => console.warn(err))
      .finally(() => {
        fetching = null;
        if (again && source) {
          again = false;
          schedule();
        }
      });
  };

  showCompileTime();
  // The stream's event types (status, match, verdict); each is a cue to fetch the timeline again.
  for (const type of ['status', 'match', 'verdict', 'message']) source.addEventListener(type, schedule);
  source.addEventListener('error', () => {
    // The server ends the stream at the verdict; EventSource would reconnect, so look once more and stop if final.
    if (source && source.readyState !== EventSource.OPEN) schedule();
  });
}
