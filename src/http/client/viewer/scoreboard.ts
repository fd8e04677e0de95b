// The scoreboard: one row per seat, updated in place every round (text only
// where it changed). At the last round it shows the final ranks.

import { roundShown, type FreezeReason } from '../../../sdk/replay-format.ts';
import type { GameView, Replay } from '../../../sdk/viewer/game-view.ts';
import { h, setAttr, setText } from './dom.ts';
import { V } from './words.ts';

const REASONS: Record<FreezeReason, string> = {
  compile: V.reasons.compile!,
  exception: V.reasons.exception!,
  cpu: V.reasons.cpu!,
  memory: V.reasons.memory!,
  orders: V.reasons.orders!,
  output: V.reasons.output!,
  watchdog: V.reasons.watchdog!,
  crash: V.reasons.crash!,
};

const ordinal = (n: number) => V.ordinal(n);

/** "out in round 12 (threw an exception): TypeError: ..." */
export function freezeText(replay: Replay, seat: number): string {
  const p = replay.players[seat]!;
  const when = p.frozenRound === null ? V.out : p.frozenRound === 0 ? V.outFromStart : V.outInRound(roundShown(p.frozenRound));
  const why = p.frozenReason ? ` (${REASONS[p.frozenReason] ?? p.frozenReason})` : '';
  return `${when}${why}${p.frozenMessage ? `: ${p.frozenMessage}` : ''}`;
}

const formatNumber = (n: number | undefined) => (n === undefined || !Number.isFinite(n) ? '–' : Number.isInteger(n) ? String(n) : n.toFixed(1));

function cpuPercent(ms: number, budget: number): string {
  const pct = budget > 0 ? (100 * ms) / budget : 0;
  return `${pct < 10 ? pct.toFixed(1) : Math.round(pct)}%`;
}

/** One player's column. */
interface Column {
  head: HTMLTableCellElement;
  score: HTMLTableCellElement;
  counters: HTMLTableCellElement[];
  cpu: HTMLTableCellElement;
  status: HTMLTableCellElement;
  /** What the status cell shows now, to rebuild it only on change. */
  statusKey: string;
}

/**
 * Players are the columns and the figures the rows, so the table is as wide
 * with four counters as with one and fits beside the board or on a phone.
 */
export class Scoreboard {
  readonly el: HTMLElement;
  private readonly caption: HTMLElement;
  private readonly cols: Column[];
  private readonly outs: HTMLUListElement;
  private readonly counterKeys: string[];

  constructor(
    private readonly replay: Replay,
    view: GameView,
    private readonly colors: readonly string[],
  ) {
    this.counterKeys = Object.keys(view.counterLabels ?? {});
    this.caption = h('span', { class: 'viewer-caption-status' });
    const cell = (seat: number, col: string) => h('td', { class: 'num', 'data-seat': seat, 'data-col': col });
    this.cols = replay.players.map((p, seat) => ({
      head: h(
        'th',
        { scope: 'col', class: 'num', 'data-seat': seat, 'data-col': 'player' },
        h('span', { class: `seat seat-${seat}`, style: `background:${colors[seat] ?? '#888'}`, 'aria-hidden': 'true' }),
        h('span', { class: 'viewer-name', title: p.name }, p.name),
      ),
      score: cell(seat, 'score'),
      counters: this.counterKeys.map((k) => cell(seat, `counter-${k}`)),
      cpu: cell(seat, 'cpu'),
      status: cell(seat, 'status'),
      statusKey: '',
    }));
    const row = (name: string, label: Node | string, cells: HTMLTableCellElement[], title?: string) =>
      h('tr', { 'data-row': name }, h('th', { scope: 'row', title: title ?? null }, label), ...cells);
    const table = h(
      'table',
      { class: 'viewer-scoreboard', 'data-scoreboard': '' },
      h('caption', {}, V.scoreboard, this.caption),
      h('thead', {}, h('tr', {}, h('td', {}), ...this.cols.map((c) => c.head))),
      h(
        'tbody',
        {},
        row(
          'score',
          V.score,
          this.cols.map((c) => c.score),
        ),
        ...this.counterKeys.map((k, i) =>
          row(
            `counter-${k}`,
            view.counterLabels[k]!,
            this.cols.map((c) => c.counters[i]!),
          ),
        ),
        row(
          'cpu',
          V.cpu,
          this.cols.map((c) => c.cpu),
          V.cpuTitle(replay.limits.cpuBudgetMs / 1000),
        ),
        row(
          'status',
          V.status,
          this.cols.map((c) => c.status),
        ),
      ),
    );
    this.outs = h('ul', { class: 'viewer-outs', 'data-outs': '' });
    this.el = h('div', { class: 'viewer-scores' }, h('div', { class: 'table-wrap' }, table), this.outs);
  }

  update(index: number) {
    const { replay } = this;
    const round = replay.rounds[index]!;
    const final = index === replay.rounds.length - 1;
    const budget = replay.limits.cpuBudgetMs;
    const outs: number[] = [];
    for (const [seat, col] of this.cols.entries()) {
      setText(col.score, formatNumber(round.scores[seat]));
      for (const [i, key] of this.counterKeys.entries()) setText(col.counters[i]!, formatNumber(round.counters[key]?.[seat]));
      const ms = round.cpuMs[seat] ?? 0;
      setText(col.cpu, cpuPercent(ms, budget));
      setAttr(col.cpu, 'title', `${Math.round(ms)} ms of ${budget} ms`);
      const frozen = round.frozen[seat] === true;
      if (frozen) outs.push(seat);
      const winner = final && replay.result.winner === seat;
      const rank = final ? replay.result.ranks[seat]! : null;
      setAttr(col.head, 'data-frozen', frozen ? 'true' : null);
      setAttr(col.head, 'data-winner', winner ? 'true' : null);
      setAttr(col.head, 'data-rank', rank === null ? null : String(rank));
      for (const td of [col.score, ...col.counters, col.cpu, col.status]) setAttr(td, 'data-winner', winner ? 'true' : null);
      // At the last round the status leads with the final rank.
      const status = `${rank ?? ''}|${frozen ? 'out' : ''}`;
      if (col.statusKey !== status) {
        col.statusKey = status;
        col.status.replaceChildren(
          ...(rank === null ? [] : [h('span', { class: 'viewer-rank', title: winner ? V.theWinner : null }, ordinal(rank)), ' ']),
          ...(frozen ? [h('span', { class: 'badge lost', title: freezeText(replay, seat) }, V.out)] : []),
        );
      }
    }
    setText(this.caption, final ? V.captionFinal(this.resultText()) : V.captionRound(round.round));
    // The reasons, in words, for readers without a pointer to hover the badge.
    const key = outs.join(',');
    if (this.outs.dataset.seats !== key) {
      this.outs.dataset.seats = key;
      this.outs.replaceChildren(
        ...outs.map((seat) =>
          h(
            'li',
            { 'data-seat': seat },
            h('span', { class: `seat seat-${seat}`, style: `background:${this.colors[seat] ?? '#888'}`, 'aria-hidden': 'true' }),
            `${replay.players[seat]!.name} ${freezeText(replay, seat)}`,
          ),
        ),
      );
    }
  }

  /** "Dummy (seat 2) wins": the seat too, since a match may seat one name several times (the seats as the match page numbers them). */
  private resultText(): string {
    const { result, players } = this.replay;
    const who = (seat: number) => `${players[seat]?.name ?? V.seat(seat)} (${V.seat(seat)})`;
    if (result.winner !== null) return V.wins(who(result.winner));
    const firsts = result.ranks.flatMap((r, seat) => (r === 1 ? [who(seat)] : []));
    return V.tie(firsts.join(', '));
  }
}
