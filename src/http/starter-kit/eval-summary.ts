// What an evaluation over many seeds says: the starter kit's `node arbiter.mjs
// eval` (bundled into play/runner.mjs) and the repository's `arbiter eval`
// sum up their matches here, the same way. Pure (no Node APIs).

import { type Replay, roundShown } from '../../sdk/replay-format.ts';

/** What an evaluation keeps of a match: no frames. */
export interface EvalMatch {
  seed: number;
  rounds: number;
  scores: number[];
  ranks: number[];
  players: { name: string; cpuMs: number; frozenRound: number | null; frozenReason: string | null; frozenMessage: string | null }[];
  /** Times the match was played again to freeze a bot that went past its limits. */
  reruns: number;
}

export interface EvalSummary {
  game: string;
  /** The players as given (files and built-ins), the evaluated one first. */
  players: string[];
  seeds: number;
  jobs: number;
  wallMs: number;
  /** The CPU of the processes that played the matches, all of it (bots, engine, start-up), when known. */
  processCpuMs: number | null;
  /** Matches the first seat finished strictly first (the gate's idea of a win). */
  wins: number;
  winRate: number;
  /** Wilson's 95% interval for the win rate. */
  interval95: [number, number];
  meanScore: number;
  meanRank: number;
  cpuBudgetMs: number;
  cpu: { seat: number; name: string; meanMs: number; maxMs: number }[];
  freezes: { seed: number; seat: number; name: string; round: number; reason: string | null; message: string | null }[];
  /** Seeds the first seat did not win, each with the line that plays it again. */
  lost: { seed: number; rank: number; score: number; play: string }[];
  failed: { seed: number; message: string }[];
  matches: EvalMatch[];
}

export function evalMatch(seed: number, replay: Replay, reruns: number): EvalMatch {
  return {
    seed,
    // The last record's round: a whole replay's, or the one record an evaluation's match keeps (lastRoundOnly).
    rounds: replay.rounds.at(-1)?.round ?? 0,
    scores: replay.result.scores,
    ranks: replay.result.ranks,
    players: replay.players.map((p) => ({
      name: p.name,
      cpuMs: p.cpuMs,
      frozenRound: p.frozenRound,
      frozenReason: p.frozenReason,
      frozenMessage: p.frozenMessage,
    })),
    reruns,
  };
}

/** Wilson's 95% interval for `wins` out of `n` (sound near 0% and 100%, unlike p ± 1.96·sd). */
export function wilson(wins: number, n: number): [number, number] {
  if (n === 0) return [0, 1];
  const z = 1.959964;
  const p = wins / n;
  const denom = 1 + (z * z) / n;
  const center = (p + (z * z) / (2 * n)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / denom;
  return [Math.max(0, center - half), Math.min(1, center + half)];
}

/** Seat 0 strictly first. */
export const isWin = (m: Pick<EvalMatch, 'ranks'>): boolean => m.ranks[0] === 1 && m.ranks.filter((r) => r === 1).length === 1;

/** --seeds 1-100, 3,7,9, or both mixed (1-10,20,30-32): each seed once, in the order given; an Error says what is wrong. */
export function parseSeeds(text: string): number[] {
  const seeds: number[] = [];
  const seed = (t: string) => {
    const n = Number(t);
    if (n > 0x7fffffff) throw new Error(`--seeds wants whole numbers from 0 to 2147483647, got "${t}"`);
    return n;
  };
  for (const part of text.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) throw new Error(`--seeds wants a range or a list (1-100, 3,7,9), got "${text}"`);
    const from = seed(m[1]!);
    const to = m[2] === undefined ? from : seed(m[2]);
    if (to < from) throw new Error(`--seeds: the range ${from}-${to} runs backwards`);
    if (to - from >= 100_000 || seeds.length > 100_000) throw new Error('--seeds: at most 100000 seeds at a time');
    for (let s = from; s <= to; s++) seeds.push(s);
  }
  return [...new Set(seeds)];
}

export interface EvalRun {
  game: string;
  players: string[];
  seeds: number[];
  matches: EvalMatch[];
  failed: { seed: number; message: string }[];
  cpuBudgetMs: number;
  jobs: number;
  wallMs: number;
  processCpuMs: number | null;
  /** The line that plays `seed` again. */
  playLine: (seed: number) => string;
}

export function summarize(run: EvalRun): EvalSummary {
  const order = new Map(run.seeds.map((s, i) => [s, i]));
  const matches = [...run.matches].sort((a, b) => order.get(a.seed)! - order.get(b.seed)!);
  const n = matches.length;
  const wins = matches.filter(isWin).length;
  const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);
  const names = matches[0]?.players.map((p) => p.name) ?? run.players;
  return {
    game: run.game,
    players: run.players,
    seeds: n,
    jobs: run.jobs,
    wallMs: run.wallMs,
    processCpuMs: run.processCpuMs,
    wins,
    winRate: n ? wins / n : 0,
    interval95: wilson(wins, n),
    meanScore: mean(matches.map((m) => m.scores[0]!)),
    meanRank: mean(matches.map((m) => m.ranks[0]!)),
    cpuBudgetMs: run.cpuBudgetMs,
    cpu: names.map((name, seat) => {
      const cpus = matches.map((m) => m.players[seat]!.cpuMs);
      return { seat, name, meanMs: mean(cpus), maxMs: cpus.length ? Math.max(...cpus) : 0 };
    }),
    freezes: matches.flatMap((m) =>
      m.players.flatMap((p, seat) =>
        p.frozenRound === null
          ? []
          : [{ seed: m.seed, seat, name: p.name, round: roundShown(p.frozenRound), reason: p.frozenReason, message: p.frozenMessage }],
      ),
    ),
    lost: matches.filter((m) => !isWin(m)).map((m) => ({ seed: m.seed, rank: m.ranks[0]!, score: m.scores[0]!, play: run.playLine(m.seed) })),
    failed: run.failed,
    matches,
  };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/** The summary for people, one line each. */
export function summaryLines(s: EvalSummary): string[] {
  const cpu = s.processCpuMs === null ? '' : ` (${(s.processCpuMs / 1000).toFixed(1)} s of CPU)`;
  const lines = [
    `${s.players[0]} against ${s.players.slice(1).join(', ')}: ${s.seeds} seeds, ${s.jobs} at a time, ${(s.wallMs / 1000).toFixed(1)} s${cpu}`,
    `  won ${s.wins} of ${s.seeds} (strictly first): ${pct(s.winRate)}, 95% interval ${pct(s.interval95[0])} to ${pct(s.interval95[1])}`,
    `  your mean score ${s.meanScore.toFixed(2)}, mean rank ${s.meanRank.toFixed(2)}`,
    `  CPU per match (the judge's budget: ${seconds(s.cpuBudgetMs)}):`,
    ...s.cpu.map(
      (c) =>
        `    ${c.seat}. ${c.name.padEnd(12)} mean ${seconds(c.meanMs).padStart(8)}  max ${seconds(c.maxMs).padStart(8)}  (${((100 * c.maxMs) / s.cpuBudgetMs).toFixed(0)}% of the budget at most)`,
    ),
  ];
  if (s.freezes.length === 0) lines.push('  no bot was frozen');
  else {
    lines.push(`  frozen (${s.freezes.length}):`);
    for (const f of s.freezes) lines.push(`    seed ${f.seed}: ${f.seat}. ${f.name} in round ${f.round} (${f.reason}): ${f.message}`);
  }
  if (s.lost.length === 0) lines.push('  no seed lost');
  else {
    lines.push(`  seeds not won (${s.lost.length}), each with the line that plays it again:`);
    for (const l of s.lost) lines.push(`    seed ${l.seed}: rank ${l.rank}, score ${l.score}   ${l.play}`);
  }
  for (const f of s.failed) lines.push(`  seed ${f.seed} FAILED (not a bot's fault): ${f.message}`);
  return lines;
}
