// What the server's routes and its metrics are built from (app.deps). A leaf of its own so
// that metrics.ts can name it without importing app.ts, which imports the routes (no import circle).

import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { JudgeQueues } from '../queue/index.ts';
import type { AttemptBudgets } from '../domain/attempt-budgets.ts';
import type { EventHub } from './events.ts';
import type { SharedLimits } from '../queue/shared-limits.ts';
import type { StartGate } from '../domain/submissions.ts';

export interface AppDeps {
  config: Config;
  db: Db;
  queues: JudgeQueues | null;
  startGate: StartGate | null;
  events: EventHub | null;
  /** Failed password checks and sign-ups, shared by the API and the pages. */
  budgets: AttemptBudgets;
  /** Rate limits, live-stream caps and play-compile budgets, shared by every API replica (src/queue/shared-limits.ts). */
  limits: SharedLimits;
}
