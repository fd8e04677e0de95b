// The scoreboard: one row per seat, updated in place every round (text only
// where it changed). At the last round it shows the final ranks.

import type { FreezeReason } from '../../../replay/format.ts';
import type { GameView, Replay } from './game-view.ts';
import { h, setAttr, setText } from './dom.ts';

const REASONS: Record<FreezeReason, string> = {
  compile: 'did not compile',
  exception: 'threw an exception',
  cpu: 'used up its CPU time',
  memory: 'ran out of memory',
  orders: 'gave more than 1000 orders in a round',
  output: 'returned orders the judge could not accept',
  watchdog: 'stopped by the watchdog',
  crash: 'its sandbox crashed',
};

const ordinal = (n: number) => {
  const s = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${s}`;
};

/** "out in round 12 (threw an exception): TypeError: ..." */
export function freezeText(replay: Replay, seat: number): string {
  const p = replay.players[seat]!;
  const when = p.frozenRound === null ? 'out' : p.frozenRound === 0 ? 'out from the start' : `out in round ${p.frozenRound}`;
  const why = p.frozenReason ? ` (${REASONS[p.frozenReason] ?? p.frozenReason})` : '';
  return `${when}${why}${p.frozenMessage ? `: ${p.frozenMessage}` : ''}`;
}

const formatNumber = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(1));

function cpuPercent(ms: number, budget: number): string {
  const pct = budget > 0 ? (100 * ms) / budget : 0;
  return `${pct < 10 ? pct.toFixed(1) : Math.round(pct)}%`;
}

interface Row {
  tr: HTMLTableRowElement;
  score: HTMLTableCellElement;
  counters: HTMLTableCellElement[];
  cpu: HTMLTableCellElement;
  status: HTMLTableCellElement;
  rank: HTMLTableCellElement;
}

export class Scoreboard {
  readonly el: HTMLElement;
  private readonly caption: HTMLElement;
  private readonly rows: Row[];
  private readonly outs: HTMLUListElement;
  private readonly counterKeys: string[];

  constructor(
    private readonly replay: Replay,
    view: GameView,
    private readonly colors: readonly string[],
  ) {
    this.counterKeys = Object.keys(view.counterLabels ?? {});
    this.caption = h('span', { class: 'viewer-caption-status' });
    const head = h(
      'tr',
      {},
      h('th', { scope: 'col' }, 'Player'),
      h('th', { scope: 'col', class: 'num' }, 'Score'),
      ...this.counterKeys.map((k) => h('th', { scope: 'col', class: 'num' }, view.counterLabels[k]!)),
      h('th', { scope: 'col', class: 'num', title: `CPU time used, of ${replay.limits.cpuBudgetMs / 1000} s for the match` }, 'CPU'),
      h('th', { scope: 'col' }, 'Status'),
      h('th', { scope: 'col', class: 'num' }, 'Rank'),
    );
    this.rows = replay.players.map((p, seat) => {
      const cell = (col: string) => h('td', { class: 'num', 'data-col': col });
      const row: Row = {
        tr: h('tr', { 'data-seat': seat }),
        score: cell('score'),
        counters: this.counterKeys.map((k) => cell(`counter-${k}`)),
        cpu: cell('cpu'),
        status: h('td', { 'data-col': 'status' }),
        rank: cell('rank'),
      };
      const swatch = h('span', { class: `seat seat-${seat}`, style: `background:${colors[seat] ?? '#888'}`, 'aria-hidden': 'true' });
      row.tr.append(
        h('th', { scope: 'row', 'data-col': 'player' }, swatch, h('span', { class: 'viewer-name' }, p.name)),
        row.score,
        ...row.counters,
        row.cpu,
        row.status,
        row.rank,
      );
      return row;
    });
    this.outs = h('ul', { class: 'viewer-outs', 'data-outs': '' });
    const table = h(
      'table',
      { class: 'viewer-scoreboard', 'data-scoreboard': '' },
      h('caption', {}, 'Scoreboard', this.caption),
      h('thead', {}, head),
      h('tbody', {}, ...this.rows.map((r) => r.tr)),
    );
    this.el = h('div', { class: 'viewer-scores' }, h('div', { class: 'table-wrap' }, table), this.outs);
  }

  update(index: number) {
    const { replay } = this;
    const round = replay.rounds[index]!;
    const final = index === replay.rounds.length - 1;
    const budget = replay.limits.cpuBudgetMs;
    const outs: string[] = [];
    for (const [seat, row] of this.rows.entries()) {
      setText(row.score, formatNumber(round.scores[seat]));
      for (const [i, key] of this.counterKeys.entries()) setText(row.counters[i]!, formatNumber(round.counters[key]?.[seat]));
      const ms = round.cpuMs[seat] ?? 0;
      setText(row.cpu, cpuPercent(ms, budget));
      setAttr(row.cpu, 'title', `${Math.round(ms)} ms of ${budget} ms`);
      const frozen = round.frozen[seat] === true;
      setAttr(row.tr, 'data-frozen', frozen ? 'true' : null);
      if (frozen) outs.push(seat.toString());
      const winner = final && replay.result.winner === seat;
      setAttr(row.tr, 'data-winner', winner ? 'true' : null);
      const status = frozen ? 'out' : winner ? 'winner' : '';
      if (row.status.dataset.status !== status) {
        row.status.dataset.status = status;
        row.status.replaceChildren(status ? h('span', { class: `badge ${frozen ? 'lost' : 'won'}`, title: frozen ? freezeText(replay, seat) : null }, status) : '');
      }
      setText(row.rank, final ? ordinal(replay.result.ranks[seat]!) : '');
    }
    setText(this.caption, final ? ` · final: ${this.resultText()}` : ` · round ${round.round}`);
    // The reasons, in words, for readers without a pointer to hover the badge.
    const key = outs.join(',');
    if (this.outs.dataset.seats !== key) {
      this.outs.dataset.seats = key;
      this.outs.replaceChildren(
        ...outs.map((s) => {
          const seat = Number(s);
          return h('li', { 'data-seat': seat }, h('span', { class: `seat seat-${seat}`, style: `background:${this.colors[seat] ?? '#888'}`, 'aria-hidden': 'true' }), `${replay.players[seat]!.name} ${freezeText(replay, seat)}`);
        }),
      );
    }
  }

  private resultText(): string {
    const { result, players } = this.replay;
    if (result.winner !== null) return `${players[result.winner]?.name ?? `seat ${result.winner}`} wins`;
    const firsts = result.ranks.flatMap((r, seat) => (r === 1 ? [players[seat]!.name] : []));
    return `tie for first (${firsts.join(', ')})`;
  }
}
