// Live judge events for SSE: one Redis subscriber per API process on
// `${prefix}:events` (the recorder and workers publish there), fanned out to
// every open stream. The streams open per client address are capped
// (SSE_MAX_PER_IP) across every API replica: each is a hold in the shared
// limits, which lapses by itself if its replica dies.

import { Redis } from 'ioredis';
import { watchRedis } from '../queue/connection.ts';
import type { SharedLimits } from '../queue/shared-limits.ts';
import { clientKey } from '../domain/attempt-budgets.ts';
import { HttpError } from './errors.ts';

export interface JudgeEventMessage {
  submissionId?: string | number;
  matchId?: string | number;
  status: string;
  [key: string]: unknown;
}

type Listener = (event: JudgeEventMessage, raw: string) => void;

export interface EventHub {
  subscribe(listener: Listener): () => void;
  /** Resolves once the Redis subscription is live (events published after that reach listeners). */
  ready(): Promise<void>;
  close(): Promise<void>;
}

export function createEventHub(redisUrl: string, channel: string, log?: (msg: string, err?: unknown) => void): EventHub {
  const listeners = new Set<Listener>();
  let sub: Redis | null = null;
  let subscribed: Promise<void> | null = null;
  function ensure() {
    if (sub) return;
    sub = new Redis(redisUrl, { maxRetriesPerRequest: null, lazyConnect: false });
    // Connection state once per change, not once per retry.
    watchRedis(sub, 'event subscriber', (message, fields) => log?.(message, fields));
    subscribed = sub.subscribe(channel).then(
      () => undefined,
      (err) => {
        log?.('event subscribe failed', err);
        subscribed = null;
        throw err;
      },
    );
    subscribed.catch(() => {});
    sub.on('message', (ch: string, raw: string) => {
      if (ch !== channel) return;
      let event: JudgeEventMessage;
      try {
        event = JSON.parse(raw) as JudgeEventMessage;
      } catch {
        return;
      }
      if (!event || typeof event !== 'object' || typeof event.status !== 'string') return;
      for (const l of listeners) l(event, raw);
    });
  }
  return {
    subscribe(listener) {
      ensure();
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async ready() {
      ensure();
      await subscribed;
    },
    async close() {
      listeners.clear();
      if (sub) {
        const s = sub;
        sub = null;
        await s.quit().catch(() => s.disconnect());
      }
    },
  };
}

/**
 * A live stream for a client address, counted against SSE_MAX_PER_IP across every API replica
 * (each holds a socket, a subscription and a poll): the release to call when it ends, or a 429.
 */
export async function claimStream(limits: SharedLimits, ip: string, maxPerIp: number): Promise<() => void> {
  const answer = await limits.hold({ key: `sse:${clientKey(ip)}`, max: maxPerIp });
  if (!answer.ok)
    throw new HttpError(429, `too many live status streams open from your address (at most ${maxPerIp}): close one and try again`, 'too-many-streams');
  return () => void answer.hold.release();
}
