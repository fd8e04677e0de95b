// `npm run bench flood-verdict`: what one student looping the play page's C++
// compiles from eight fresh accounts at one address costs an honest student's
// submission: its time from upload to verdict alone and under the flood, in
// one run, the two interleaved round after round. The judge as the tests run
// it (test/helpers/judge.ts): the API and the recorder in this process (the
// play page's compiles in the API's play-lane compile server, a child
// process), one worker process with a runner per core. The honest file is a
// TypeScript player that beats the Dummy (the burst bench's Prospector) under
// a new name each time, so every gate plays its five matches. Knobs: BENCH_FLOOD_ROUNDS (2). The toolchain:
// system clang when there is one (ARBITER_CPP_CLANG=npm for @yowasp/clang).

import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { startTestJudge } from '../test/helpers/judge.ts';

const ROUNDS = Number(process.env.BENCH_FLOOD_ROUNDS ?? 2);
const FLOODERS = 8;
const FLOOD_IP = '10.66.0.1';

const prospector = readFileSync(new URL('./burst/Prospector.ts.tmpl', import.meta.url), 'utf8');
const demo = readFileSync(new URL('../src/games/moria/cpp/AIDemo.cc', import.meta.url), 'utf8');
let unique = 0;
/** The C++ Demo as a file no compile has seen. */
const freshDemo = () => `// GAME: moria\n${demo}\n// ${process.pid} ${++unique}\n`;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)]! : Number.NaN;
};

export async function run(): Promise<void> {
  const judge = await startTestJudge({ concurrency: availableParallelism() });
  console.log(`machine: ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)} at start`);
  try {
    await judge.addWorker();
    await judge.startRecorder();
    const flooders: string[] = [];
    for (let i = 0; i < FLOODERS; i++) flooders.push(await judge.user(`flood${i}`));
    const honest = await judge.user('honest');
    const compile = (token: string) =>
      judge.app.inject({
        method: 'POST',
        url: '/api/play/compile',
        remoteAddress: FLOOD_IP,
        headers: { authorization: `Bearer ${token}` },
        payload: { filename: 'AIDemo.cc', source: freshDemo() },
      });
    // Warm the play lane's compile server and the worker's match processes (their first use pays the start).
    await compile(flooders[0]!);
    let n = 0;
    const verdict = async () => {
      const upload = await judge.submit(honest, prospector.replace(/^export const PLAYER_NAME = '[^']*';/m, `export const PLAYER_NAME = 'Honest${++n}';`));
      if (upload.statusCode !== 202) throw new Error(`upload: ${upload.statusCode} ${JSON.stringify(upload.body)}`);
      const t = performance.now();
      const done = await judge.verdict(upload.body.id as number, 600_000);
      const matches = ((await judge.app.inject({ url: `/api/submissions/${upload.body.id}` })).json().gateMatches ?? []).length as number;
      return { ms: performance.now() - t, status: done.status as string, matches };
    };
    await verdict();

    const times: Record<'alone' | 'flood', number[]> = { alone: [], flood: [] };
    const floodAnswers: Record<string, number> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const phase of ['alone', 'flood'] as const) {
        let flooding = phase === 'flood';
        // Each fresh account loops: a compile, and the next as soon as it is answered (a refusal is tried again at once).
        const loops = flooding
          ? flooders.map(async (token) => {
              while (flooding) {
                const r = await compile(token);
                const key = r.statusCode === 200 ? 'compiled' : `${r.statusCode} ${(r.json() as { code?: string }).code ?? 'rate-limited'}`;
                floodAnswers[key] = (floodAnswers[key] ?? 0) + 1;
                if (r.statusCode !== 200) await new Promise((ok) => setTimeout(ok, 50));
              }
            })
          : [];
        if (flooding) await new Promise((ok) => setTimeout(ok, 1500));
        const v = await verdict();
        flooding = false;
        await Promise.all(loops);
        times[phase].push(v.ms);
        console.log(
          `round ${round + 1}, ${phase}: the honest submission's verdict (${v.status}, ${v.matches} gate matches) ${(v.ms / 1000).toFixed(1)} s after its upload`,
        );
      }
    }
    const alone = median(times.alone);
    const flood = median(times.flood);
    console.log(
      `alone: median ${(alone / 1000).toFixed(1)} s; under the flood: median ${(flood / 1000).toFixed(1)} s (${((flood - alone) / 1000).toFixed(1)} s more)`,
    );
    console.log(
      `the flood's answers: ${Object.entries(floodAnswers)
        .map(([k, c]) => `${k} ${c}`)
        .join('; ')}`,
    );
  } finally {
    await judge.close();
  }
}
