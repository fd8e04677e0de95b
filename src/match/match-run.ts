// One match under way, whatever runs the bots: the seats, their logs and
// freezes, the rounds recorded, the replay. Pure (no Node APIs): the server's
// runner (src/sandbox/match-process/play-resolved.ts: isolates, or node:vm for trusted code) and the play
// page's driver in the browser (src/http/client/play/, a Web Worker per bot)
// both play their matches through it, so the same seed and the same bots
// give the same replay in both.
//
// A bot that breaks a rule is frozen (its orders stop, its units stay) and the
// match goes on; nothing a bot does can stop the match or change how the
// other bots are treated. A bot's name is the one its file's header declares.

import { ranksFromScores } from '../sdk/ranking.ts';
import { isOver, type AnyGame, type Limits } from '../sdk/types.ts';
import { REPLAY_FORMAT, REPLAY_VERSION, roundShown, type FreezeReason, type Replay, type ReplayPlayer, type ReplayRound } from '../sdk/replay-format.ts';
import { capText, type BotHost, type PlayReply } from './bot-host.ts';
import { JsonWriter } from '../sdk/json-writer.ts';
import { cpuBudgetUsedUp, LOG_CAP_BYTES, logTruncated, MAX_NAME_CHARS, MAX_ORDERS, tooManyOrders } from '../sdk/limits.ts';
import type { CompiledSeat, ForcedFreeze, MatchOutcome, ResolvedMatchSpec } from './types.ts';

/** What a MatchRun needs from whoever hosts it. */
export interface MatchRunHooks {
  /** A new host for seat `me`'s bot. */
  host(me: number): BotHost;
  /** The game's prelude (src/sandbox/hosts/prelude.ts), the same for every seat. */
  prelude(): Promise<string>;
  /** The name a bot file declares in its header (PLAYER_NAME), or null: its language knows how to read it. */
  declaredName(source: string): string | null;
  /** Seat `me`'s compiled bot, or its compile error (a failure of the judge's throws). */
  compile(me: number): Promise<CompiledSeat>;
  /** Maps positions in a message from the compiled code back to the author's file. */
  mapPositions(seat: { code: string; map?: number[][][] }, filename: string, message: string): string;
  /** Freezes decided by an earlier run of the same match (see RunOptions.forced). */
  forced?: ForcedFreeze[];
  /** Called after every round, for progress displays. */
  onRound?: (round: number, totalRounds: number) => void;
  /** Each piece of a seat's log as it is kept (after the cap), with the round it belongs to (0: loading): the play page shows logs round by round. */
  onLog?: (me: number, round: number, text: string) => void;
  /** Keep only the last round's record (RunOptions.lastRoundOnly): an evaluation reads the result, not the frames. */
  lastRoundOnly?: boolean;
}

/** A match played out with its replay written as JSON (playOutAsJson): the replay without its rounds, and its whole JSON. */
export interface JsonMatchOutcome {
  head: Omit<Replay, 'rounds'> & { rounds: null };
  /** UTF-8 of what JSON.stringify of the whole replay gives, to the byte. */
  json: Uint8Array;
  logs: string[];
}

interface Seat {
  me: number;
  host: BotHost;
  /** The compiled bot, to map error positions back to the author's lines. */
  compiled: { code: string; map?: number[][][] } | null;
  filename: string;
  player: ReplayPlayer;
  frozen: boolean;
  log: string;
  logFull: boolean;
}

/** The name a seat plays under: its header's PLAYER_NAME, else its file's name. */
export function playerName(declared: string | null, filename: string): string {
  return (declared ?? filename.replace(/^.*[\\/]/, '').replace(/\.[^.]*$/, '')).slice(0, MAX_NAME_CHARS);
}

export class MatchRun {
  private readonly config: object;
  private readonly limits: Limits;
  private readonly seats: Seat[];

  constructor(
    private readonly game: AnyGame,
    private readonly spec: ResolvedMatchSpec,
    private readonly seed: number,
    private readonly hooks: MatchRunHooks,
  ) {
    this.config = game.parseConfig(spec.config ?? {});
    // Resolved once, where the match was created (resolveLimits): counted against here, never merged again.
    this.limits = spec.limits;
    this.seats = spec.seats.map((s, me) => ({
      me,
      host: hooks.host(me),
      compiled: null,
      filename: s.filename,
      player: {
        name: playerName(hooks.declaredName(s.source), s.filename),
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

  private appendLog(seat: Seat, round: number, text: string): void {
    if (!text || seat.logFull) return;
    const room = LOG_CAP_BYTES - seat.log.length;
    if (text.length > room) {
      text = text.slice(0, room) + '\n' + logTruncated() + '\n';
      seat.logFull = true;
    }
    seat.log += text;
    this.hooks.onLog?.(seat.me, round, text);
  }

  private freeze(seat: Seat, round: number, reason: FreezeReason, message: string): void {
    seat.frozen = true;
    if (seat.compiled) message = this.hooks.mapPositions(seat.compiled, seat.filename, capText(message));
    message = capText(message);
    seat.player.frozenRound = round;
    seat.player.frozenReason = reason;
    seat.player.frozenMessage = message;
    this.appendLog(seat, round, `frozen in round ${roundShown(round)} (${reason}): ${message}\n`);
  }

  /**
   * Loads the bots (compiling those not compiled yet side by side; the hosts
   * load one after another). Every load is settled before a failure of the
   * judge's is thrown, so no bot is released while it is still loading.
   */
  private async loadBots(): Promise<void> {
    const prelude = await this.hooks.prelude();
    const loads = await Promise.allSettled(this.seats.map((seat, me) => this.loadBot(seat, me, prelude)));
    for (const l of loads) if (l.status === 'rejected') throw l.reason;
  }

  private async loadBot(seat: Seat, me: number, prelude: string): Promise<void> {
    const source = this.spec.seats[me]!;
    const compiled = await this.hooks.compile(me);
    if ('error' in compiled) return this.freeze(seat, 0, 'compile', compiled.error);
    seat.compiled = compiled;
    const forced = this.forcedFor(me, 0);
    if (forced) {
      seat.player.cpuMs += forced.cpuMs;
      return this.freeze(seat, 0, forced.reason, forced.message);
    }
    const { cpuBudgetMs, memoryMb } = this.limits;
    const reply = await seat.host.load({
      prelude,
      code: compiled.code,
      filename: source.filename,
      me,
      seed: this.seed,
      cpuBudgetMs,
      memoryMb,
      logCapBytes: LOG_CAP_BYTES,
    });
    seat.player.cpuMs += reply.cpuMs;
    this.appendLog(seat, 0, reply.log);
    if (!reply.ok) this.freeze(seat, 0, reply.reason, reply.message);
    else if (reply.game !== this.game.id)
      this.freeze(seat, 0, 'compile', `the bot declares GAME = "${capText(reply.game, MAX_NAME_CHARS)}" but this match is ${this.game.id}`);
  }

  /**
   * Every round until the last, then the final state. Each round's record is kept in `rounds`, or written
   * as JSON into `json` (playOutAsJson), the records separated by commas.
   */
  private async play(rounds: ReplayRound[], json: JsonWriter | null): Promise<unknown> {
    const { game, config, seats } = this;
    let state = game.create(config, this.seed);
    // The JSON is written at the end, all of it in one loop: between two bots' calls the same writing ran at
    // about half that speed (the bots had taken the caches). The states are kept till then: next() never
    // mutates the state it is given (GameDeclaration.next), and the seats' figures are copied.
    const pending: PendingRecord[] = [];
    const keep = (round: number, orders: unknown[][], events: unknown[]) => {
      if (!json) return void rounds.push(record(game, state, round, orders, events, seats));
      pending.push({ state, round, orders, events, cpuMs: seats.map((s) => round3(s.player.cpuMs)), frozen: seats.map((s) => s.frozen) });
    };
    keep(
      0,
      seats.map(() => []),
      [],
    );
    const totalRounds = game.totalRounds(config);
    const lastOnly = this.hooks.lastRoundOnly === true;
    let last: { round: number; orders: unknown[][]; events: unknown[] } | null = null;
    while (!isOver(game, config, state)) {
      const round = game.round(state) + 1;
      const orders = await this.collectOrders(state, round);
      const outcome = game.next(
        state,
        orders,
        seats.map((s) => s.frozen),
      );
      state = outcome.state;
      if (lastOnly) last = { round, orders, events: outcome.events };
      else keep(round, orders, outcome.events);
      this.hooks.onRound?.(round, totalRounds);
    }
    if (last) {
      rounds.length = pending.length = 0;
      keep(last.round, last.orders, last.events);
    }
    if (json)
      for (const [k, r] of pending.entries()) {
        if (k > 0) json.byte(44); /* , */
        writeRecord(json, game, r);
      }
    return state;
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
      const host = seat.host;
      replies.push(seat.frozen ? null : forced ? { ok: false, log: '', ...forced } : host.playSync ? host.playSync(request) : await host.play(request));
    }
    return replies.map((reply, p) => (reply ? this.ordersOf(seats[p]!, p, reply, state, round) : []));
  }

  private forcedFor(seat: number, round: number): ForcedFreeze | undefined {
    return this.hooks.forced?.find((f) => f.seat === seat && f.round === round);
  }

  private ordersOf(seat: Seat, p: number, reply: PlayReply, state: unknown, round: number): unknown[] {
    seat.player.cpuMs += reply.cpuMs;
    this.appendLog(seat, round, reply.log);
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
      this.appendLog(seat, round, `warning: round ${round}: unreadable orders ignored\n`);
      return [];
    }
    const checked = this.game.validateOrders(state, p, raw);
    for (const w of checked.warnings) this.appendLog(seat, round, `warning: round ${round}: ${w}\n`);
    return checked.orders;
  }

  private replay<R>(state: unknown, rounds: R): Omit<Replay, 'rounds'> & { rounds: R } {
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

  private async close(): Promise<void> {
    await Promise.all(this.seats.map((s) => s.host.close().catch(() => {})));
  }

  /** The whole match, as every caller plays one: the bots loaded, every round played, the hosts closed whatever happened. */
  async playOut(): Promise<MatchOutcome> {
    const rounds: ReplayRound[] = [];
    const state = await this.played(rounds, null);
    return { replay: this.replay(state, rounds), logs: this.seats.map((s) => s.log) };
  }

  /**
   * The same match, its replay written as JSON after the last round, as the match process sends it
   * (encoded): a frame is written without being built (GameDefinition.writeFrame), no round is held as
   * objects, and no string is encoded to UTF-8 again. In a match process (4 Dummies, CPU, medians of 36
   * matches each way) the records, the JSON and its gzip took Harry Potter 21.0 ms a match against 22.8
   * as objects, The Walking Dead 19.8 against 27.2; alone, a match's frames written take 4.1-4.6 ms
   * against 7.5-8.1 built and stringified.
   */
  async playOutAsJson(): Promise<JsonMatchOutcome> {
    const json = new JsonWriter(1 << 20);
    const state = await this.played([], json);
    const head = this.replay(state, null);
    return { head, json: replayJson(head, json.view()), logs: this.seats.map((s) => s.log) };
  }

  private async played(rounds: ReplayRound[], json: JsonWriter | null): Promise<unknown> {
    try {
      await this.loadBots();
      return await this.play(rounds, json);
    } finally {
      await this.close();
    }
  }
}

const utf8 = new TextEncoder();

/**
 * A replay's JSON from its head and its rounds' records written as JSON (comma-separated), to the byte the
 * UTF-8 of JSON.stringify(replay): the keys in the order replay() writes them, the rounds in their place before the result.
 */
export function replayJson(head: Omit<Replay, 'rounds'> & { rounds: null }, rounds: Uint8Array): Uint8Array {
  const { rounds: _none, result, ...before } = head;
  const open = utf8.encode(`${JSON.stringify(before).slice(0, -1)},"rounds":[`);
  const close = utf8.encode(`],"result":${JSON.stringify(result)}}`);
  const out = new Uint8Array(open.length + rounds.length + close.length);
  out.set(open, 0);
  out.set(rounds, open.length);
  out.set(close, open.length + rounds.length);
  return out;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

/** A round's record to be written (playOutAsJson): its state, and what changes in the seats after it. */
export interface PendingRecord {
  state: unknown;
  round: number;
  orders: unknown[][];
  events: unknown[];
  cpuMs: number[];
  frozen: boolean[];
}

/** What JSON.stringify(record(...)) writes, written into `out`; the keys in record's order (bench/games.ts times it). */
export function writeRecord(out: JsonWriter, game: AnyGame, { state, round, orders, events, cpuMs, frozen }: PendingRecord): void {
  out.raw('{"round":');
  out.number(round);
  out.raw(',"orders":');
  out.nested(orders);
  out.raw(',"events":');
  out.value(events);
  out.raw(',"frame":');
  if (game.writeFrame) game.writeFrame(state, out);
  else out.value(game.frame(state));
  out.raw(',"scores":');
  out.value(game.scores(state));
  out.raw(',"counters":');
  out.value(game.counters(state));
  out.raw(',"cpuMs":');
  out.numbers(cpuMs);
  out.raw(',"frozen":');
  out.value(frozen);
  out.byte(125); /* } */
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
