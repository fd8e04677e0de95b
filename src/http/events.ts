// Live judge events for SSE: one Redis subscriber per API process on
// `${prefix}:events` (the recorder and workers publish there), fanned out to
// every open stream.

import { Redis } from 'ioredis';
import { watchRedis } from '../queue/connection.ts';

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
