// The play page's compiles are bounded per client (a signed-in user, else an
// address): one at a time, and a budget of compiler CPU seconds per hour
// (PLAY_COMPILE_CPU_SECONDS_PER_HOUR, default 300). A compile is given what
// is left of the budget and stopped there (toolchain.ts: the play lane); the
// CPU it used is charged to the client, never to the file. The accounting is
// src/http/play-compile.ts's, in the limits every API replica shares.

import { readSettings } from '../../config.ts';

/** PLAY_COMPILE_CPU_SECONDS_PER_HOUR: a client's compiler CPU seconds per hour on the play page. */
export function playCompileCpuSecondsPerHour(): number {
  return readSettings(['playCompileCpuSecondsPerHour']).playCompileCpuSecondsPerHour;
}
