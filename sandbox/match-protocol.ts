// What sandbox-host.ts sends a match process (match-process.ts): a leaf of its own, so the
// host names these types without importing the child's entry (no import circle).

import type { LoadRequest } from './host.ts';
import type { MatchSpec, RunOptions } from '../src/runner/types.ts';

/** Which game: one the registry finds by id, or a game module outside it (tests' fixtures). */
export type GameRef = { id: string; module?: string };

export type MatchProcessJob =
  | { t: 'match'; game: GameRef; spec: MatchSpec; options: Pick<RunOptions, 'compiled' | 'forced' | 'patient'> }
  | { t: 'check'; req: LoadRequest };
export type MatchProcessMessage = MatchProcessJob & { id: number };
