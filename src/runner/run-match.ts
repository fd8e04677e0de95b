// Plays one match: the game's engine in this process, each bot behind a
// BotHost. A sandboxed match (the default) is handed to a match process
// (sandbox/sandbox-host.ts), which comes back here with host 'isolate'. The result is a self-contained replay plus the bots' private logs.
// A bot that breaks a rule is frozen (its orders stop, its units stay) and the
// match goes on; nothing a bot does can stop the match or change how the
// other bots are treated.
//
// A bot's name is the one its file's header declares (what the judge checked
// at upload), in every match: what its code computes at run time never
// reaches the other bots or the replay. The bots of a match play one after
// another, so a match never runs more than one bot at a time. When the judge
// itself fails (SandboxInfraError, which a CompileInfraError becomes),
// runMatch throws and the match is played again: that never freezes a bot.

import { getGame } from '../game-kit/registry.ts';
import { ranksFromScores } from '../game-kit/ranking.ts';
import { isOver, type AnyGame, type Limits } from '../game-kit/types.ts';
import { REPLAY_FORMAT, REPLAY_VERSION, type FreezeReason, type Replay, type ReplayPlayer, type ReplayRound } from '../replay/format.ts';
import { BotCompileError, botSourceMap, CompileInfraError, compileBot, mapBotPositions, readBotHeader } from '../../sandbox/compile.ts';
import { buildPrelude } from '../../sandbox/prelude.ts';
import { capText, SandboxInfraError, type BotHost } from '../../sandbox/host.ts';
import { cpuBudgetUsedUp, LOG_CAP_BYTES, logTruncated, MAX_NAME_CHARS, MAX_ORDERS, tooManyOrders } from '../limits.ts';
import { InProcessBotHost } from '../../sandbox/inprocess-host.ts';
import { IsolateBotHost } from '../../sandbox/isolate-host.ts';
import { runSandboxedMatch } from '../../sandbox/sandbox-host.ts';
import type { CompiledSeat, ForcedFreeze, MatchOutcome, MatchSpec, RunOptions } from './types.ts';

export class MatchSpecError extends Error {
  override name = 'MatchSpecError';
}

export function checkSeed(seed: unknown): number {
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0 || seed > 0x7fffffff)
    throw new MatchSpecError(`bad seed ${JSON.stringify(seed)}: a whole number from 0 to 2147483647`);
  return seed;
}

export async function runMatch(spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  return runMatchWithGame(await getGame(spec.game), spec, options);
}

interface Seat {
  host: BotHost;
  /** The compiled bot, to map error positions back to the author's lines. */
  code: string;
  filename: string;
  player: ReplayPlayer;
  frozen: boolean;
  log: string;
  logFull: boolean;
}

type PlayReply = Awaited<ReturnType<BotHost['play']>>;

export async function runMatchWithGame(game: AnyGame, spec: MatchSpec, options: RunOptions = {}): Promise<MatchOutcome> {
  const seed = checkSeed(spec.seed);
  if (spec.seats.length !== game.nbPlayers) throw new MatchSpecError(`${game.title} needs ${game.nbPlayers} players, got ${spec.seats.length}`);
  // The sandbox plays the match in a child process of its own, which comes back here with host 'isolate'.
  if ((options.host ?? 'sandbox') === 'sandbox') return runSandboxedMatch(game, { ...spec, seed }, options);
  const run = new MatchRun(game, spec, seed, options);
  try {
    await run.loadBots();
    return await run.play();
  } finally {
    await run.close();
  }
}

/** One match under way: its seats, their logs and freezes, and the rounds recorded so far. */
class MatchRun {
  private readonly config: object;
  private readonly limits: Limits;
  private readonly seats: Seat[];

  constructor(
    private readonly game: AnyGame,
    private readonly spec: MatchSpec,
    private readonly seed: number,
    private readonly options: RunOptions,
  ) {
    this.config = game.parseConfig(spec.config ?? {});
    this.limits = { ...game.defaultLimits, ...spec.limits };
    this.seats = spec.seats.map((s) => ({
      host: options.host === 'inprocess' ? new InProcessBotHost() : new IsolateBotHost({ patient: new Set(options.patient ?? []) }),
      code: '',
      filename: s.filename,
      player: {
        name: (readBotHeader(s.source).name ?? s.filename.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')).slice(0, MAX_NAME_CHARS),
        cpuMs: 0,
        frozenRound: null,
        frozenReason: null,
        frozenMessage: null,
      },
      frozen: false,
      log: '',
      logFull: false,
    }));
  }

  private appendLog(seat: Seat, text: string): void {
    if (!text || seat.logFull) return;
    const room = LOG_CAP_BYTES - seat.log.length;
    if (text.length > room) {
      seat.log += text.slice(0, room) + '\n' + logTruncated() + '\n';
      seat.logFull = true;
    } else seat.log += text;
  }

  private freeze(seat: Seat, round: number, reason: FreezeReason, message: string): void {
    seat.frozen = true;
    if (seat.code) message = mapBotPositions(seat.code, seat.filename, capText(message));
    message = capText(message);
    seat.player.frozenRound = round;
    seat.player.frozenReason = reason;
    seat.player.frozenMessage = message;
    this.appendLog(seat, `frozen in round ${round} (${reason}): ${message}\n`);
  }

  /**
   * Loads the bots (compiling those not compiled yet side by side; the
   * isolates load one after another). Every load is settled before a failure
   * of the judge's is thrown, so no bot is released while it is still loading.
   */
  async loadBots(): Promise<void> {
    const prelude = await buildPrelude(this.game);
    const loads = await Promise.allSettled(this.seats.map((seat, me) => this.loadBot(seat, me, prelude)));
    for (const l of loads) if (l.status === 'rejected') throw l.reason;
  }

  private async loadBot(seat: Seat, me: number, prelude: string): Promise<void> {
    const source = this.spec.seats[me]!;
    const compiled = this.options.compiled?.[me] ?? (await compileSeat(source.source, source.filename, me, this.game.id));
    if ('error' in compiled) return this.freeze(seat, 0, 'compile', compiled.error);
    const code = compiled.code;
    seat.code = code;
    const forced = this.forcedFor(me, 0);
    if (forced) {
      seat.player.cpuMs += forced.cpuMs;
      return this.freeze(seat, 0, forced.reason, forced.message);
    }
    const { cpuBudgetMs, memoryMb } = this.limits;
    const reply = await seat.host.load({ prelude, code, filename: source.filename, me, seed: this.seed, cpuBudgetMs, memoryMb, logCapBytes: LOG_CAP_BYTES });
    seat.player.cpuMs += reply.cpuMs;
    this.appendLog(seat, reply.log);
    if (!reply.ok) this.freeze(seat, 0, reply.reason, reply.message);
    else if (reply.game !== this.game.id) this.freeze(seat, 0, 'compile', `the bot declares GAME = "${capText(reply.game, MAX_NAME_CHARS)}" but this match is ${this.game.id}`);
  }

  /** Every round until the last, then the replay. */
  async play(): Promise<MatchOutcome> {
    const { game, config, seats } = this;
    let state = game.create(config, this.seed);
    const rounds: ReplayRound[] = [record(game, state, 0, seats.map(() => []), [], seats)];
    const totalRounds = game.totalRounds(config);
    while (!isOver(game, config, state)) {
      const round = game.round(state) + 1;
      const orders = await this.collectOrders(state, round);
      const outcome = game.next(state, orders, seats.map((s) => s.frozen));
      state = outcome.state;
      rounds.push(record(game, state, round, orders, outcome.events, seats));
      this.options.onRound?.(round, totalRounds);
    }
    return { replay: this.replay(state, rounds), logs: seats.map((s) => s.log) };
  }

  /** The bots play one after another on the same view; each one's orders, checked by the game. */
  private async collectOrders(state: unknown, round: number): Promise<unknown[][]> {
    const { seats, limits } = this;
    const view = this.game.encodeView(state);
    const request = {
      names: JSON.stringify(Object.keys(view)),
      status: JSON.stringify({
        status: seats.map((s) => (s.frozen ? -1 : Math.min(1, s.player.cpuMs / limits.cpuBudgetMs))),
        names: seats.map((s) => s.player.name),
      }),
      arrays: Object.values(view),
    };
    const replies: (PlayReply | null)[] = [];
    for (const [p, seat] of seats.entries()) {
      const forced = seat.frozen ? undefined : this.forcedFor(p, round);
      replies.push(seat.frozen ? null : forced ? { ok: false, log: '', ...forced } : await seat.host.play(request));
    }
    return replies.map((reply, p) => (reply ? this.ordersOf(seats[p]!, p, reply, state, round) : []));
  }

  private forcedFor(seat: number, round: number): ForcedFreeze | undefined {
    return this.options.forced?.find((f) => f.seat === seat && f.round === round);
  }

  private ordersOf(seat: Seat, p: number, reply: PlayReply, state: unknown, round: number): unknown[] {
    seat.player.cpuMs += reply.cpuMs;
    this.appendLog(seat, reply.log);
    if (!reply.ok) {
      this.freeze(seat, round, reply.reason, reply.message);
      return [];
    }
    if (reply.count > MAX_ORDERS) {
      this.freeze(seat, round, 'orders', `${tooManyOrders()}: ${reply.count}`);
      return [];
    }
    if (seat.player.cpuMs > this.limits.cpuBudgetMs) {
      this.freeze(seat, round, 'cpu', cpuBudgetUsedUp(this.limits.cpuBudgetMs));
      return [];
    }
    let raw: unknown;
    try {
      raw = JSON.parse(reply.orders);
    } catch {
      this.appendLog(seat, `warning: round ${round}: unreadable orders ignored\n`);
      return [];
    }
    const checked = this.game.validateOrders(state, p, raw);
    for (const w of checked.warnings) this.appendLog(seat, `warning: round ${round}: ${w}\n`);
    return checked.orders;
  }

  private replay(state: unknown, rounds: ReplayRound[]): Replay {
    const { game } = this;
    const scores = game.scores(state);
    const ranks = ranksFromScores(scores);
    const firsts = ranks.filter((r) => r === 1).length;
    return {
      format: REPLAY_FORMAT,
      version: REPLAY_VERSION,
      game: game.id,
      title: game.title,
      engineVersion: game.engineVersion,
      config: this.config as Record<string, unknown>,
      seed: this.seed,
      limits: this.limits,
      players: this.seats.map((s) => ({ ...s.player, cpuMs: round3(s.player.cpuMs) })),
      rounds,
      result: { scores, ranks, winner: firsts === 1 ? ranks.indexOf(1) : null },
    };
  }

  async close(): Promise<void> {
    await Promise.all(this.seats.map((s) => s.host.close().catch(() => {})));
  }
}

/** Compiles a seat's source; the bot's own compile error freezes it, any other failure is the judge's. */
export async function compileSeat(source: string, filename: string, me: number, game?: string): Promise<CompiledSeat> {
  try {
    const code = await compileBot(source, filename, game);
    const map = botSourceMap(code);
    return map ? { code, map } : { code };
  } catch (err) {
    // Anything but the bot's own compile error is the judge's: the match is played again.
    if (err instanceof CompileInfraError) throw new SandboxInfraError(`seat ${me}: ${err.message}`, { cause: err });
    if (!(err instanceof BotCompileError)) throw err;
    return { error: err.message };
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function record(game: AnyGame, state: unknown, round: number, orders: unknown[][], events: unknown[], seats: Seat[]): ReplayRound {
  return {
    round,
    orders,
    events,
    frame: game.frame(state),
    scores: game.scores(state),
    counters: game.counters(state),
    cpuMs: seats.map((s) => round3(s.player.cpuMs)),
    frozen: seats.map((s) => s.frozen),
  };
}
