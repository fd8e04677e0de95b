// `npm run bench eval`: what a student's batch evaluation costs. `arbiter eval moria <bot>
// Dummy Dummy Dummy --seeds 1-N` (one warm match process per core, the bot compiled once), and the
// starter kit's `node arbiter.mjs eval <bot> Dummy Dummy Dummy --seeds 1-N` in an unpacked kit (the
// kit this checkout makes; the bot's compile put in its cache first, as a student's first run
// leaves it), against the original game run N times, `./Game Demo Dummy Dummy Dummy -s <seed>` for
// the same seeds: the CPU of each whole process tree (the command, its match processes, its
// compiler; the shell loop and every ./Game), interleaved when there is more than one round. The
// student's bot is the shipped Demo under a name of its own (so it is an upload, in its isolate,
// not the judge's built-in), in TypeScript, and in C++ (the game's kit C++ Demo) when a clang is
// there; the original plays its own Demo (which trips an assertion of the original's Board::move on
// a few seeds, seed 35 among them: those runs end there, a little cheaper, and the loop goes on).
// Goal: at most 1.5 times the original's CPU; the kit's eval no worse than the CLI's.
// With ARBITER_BENCH_BASELINE naming another checkout (an earlier commit, its node_modules
// installed), the same commands from it (its CLI, built; its kit) in the same rounds: a change
// measured before and after in one run.
//   npm run bench eval [seeds] [rounds] [ts|cpp...] [cli|kit...]      (100 seeds, 1 round, ts and
//   cpp, cli and kit by default; the original from ARBITER_ORIGINALS=/work/orig: <folder>/moria/Game
//   and default.cnf)
// The CLI runs the built judge (dist/, built first if stale), not the sources.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTree, type Sample } from './cli.ts';
import { originalGame, originalsFolder } from './originals.ts';

const GAME = 'moria';
const GOAL = 1.5;
const root = fileURLToPath(new URL('../', import.meta.url));

/** The student's bot in each language: the game's shipped Demo renamed, so the judge takes it for an upload. */
function studentBots(dir: string): Record<string, string> {
  const ts = join(dir, 'Student.ts');
  writeFileSync(
    ts,
    readFileSync(join(root, 'src/games', GAME, 'bots/Demo.ts'), 'utf8').replace(
      /export const PLAYER_NAME\s*=\s*['"][^'"]*['"]/,
      'export const PLAYER_NAME = "Student"',
    ),
  );
  const cc = join(dir, 'AIStudent.cc');
  writeFileSync(cc, readFileSync(join(root, 'src/games', GAME, 'cpp/AIDemo.cc'), 'utf8').replace(/#define PLAYER_NAME \w+/, '#define PLAYER_NAME Student'));
  return { ts, cpp: cc };
}

/**
 * An unpacked starter kit of `checkout` in `dir` (<dir>/<game>-starter-kit), made by that
 * checkout's own sources (in a process of its own, through its tsx), each bot file copied in and
 * its compile put in the kit's cache (.cache/, keyed as arbiter.mjs keys it), so eval compiles
 * nothing and asks no site. Returns the kit's folder.
 */
function writeKit(checkout: string, dir: string, bots: string[]): string {
  const code = `
    import { createHash } from 'node:crypto';
    import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
    import { basename, dirname, join } from 'node:path';
    import { pathToFileURL } from 'node:url';
    const from = (p) => import(pathToFileURL(join(process.cwd(), p)).href);
    const { getGame } = await from('src/games/registry.ts');
    const { localPlayEntries } = await from('src/http/starter-kit/build.ts');
    const { compileSeat } = await from('src/sandbox/languages/compile-seat.ts');
    const [out, gameId, ...bots] = process.argv.slice(1);
    const game = await getGame(gameId);
    const folder = gameId + '-starter-kit';
    for (const e of await localPlayEntries(game, folder, 'http://127.0.0.1:9')) {
      mkdirSync(dirname(join(out, e.name)), { recursive: true });
      writeFileSync(join(out, e.name), e.data);
    }
    const kit = JSON.parse(readFileSync(join(out, folder, 'play/kit.json'), 'utf8'));
    mkdirSync(join(out, folder, '.cache'), { recursive: true });
    for (const bot of bots) {
      const source = readFileSync(bot, 'utf8');
      const name = basename(bot);
      const ext = (/\\.[^.]*$/.exec(name)?.[0] ?? '').toLowerCase();
      const compiled = await compileSeat(source, name, 0, gameId);
      if ('error' in compiled) throw new Error(name + ': ' + compiled.error);
      const key = createHash('sha256').update(kit.version + '\\0' + kit.game + '\\0' + ext + '\\0').update(source).digest('hex');
      writeFileSync(join(out, folder, '.cache', key + '.json'), JSON.stringify(compiled));
      copyFileSync(bot, join(out, folder, name));
    }
    process.exit(0);
  `;
  mkdirSync(dir, { recursive: true });
  const made = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '--input-type=module', '-e', code, dir, GAME, ...bots], {
    cwd: checkout,
    stdio: 'inherit',
  });
  if (made.status !== 0) throw new Error(`${checkout} could not make its starter kit`);
  return join(dir, `${GAME}-starter-kit`);
}

export async function run(args: string[] = []): Promise<void> {
  const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const seeds = numbers[0] ?? 100;
  const rounds = numbers[1] ?? 1;
  const wanted = args.filter((a) => a === 'ts' || a === 'cpp');
  const languages = wanted.length ? wanted : ['ts', 'cpp'];
  const tools = args.filter((a) => a === 'cli' || a === 'kit');
  const which = tools.length ? tools : ['cli', 'kit'];
  const originals = originalsFolder();
  const original = originals ? join(originals, GAME) : null;
  if (!original || !existsSync(originalGame(originals!, GAME)))
    throw new Error(`no original to measure against: ARBITER_ORIGINALS=<folder> with <folder>/${GAME}/Game`);
  const baseline = process.env['ARBITER_BENCH_BASELINE'];
  console.log(
    `machine: ${availableParallelism()} core(s), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at start; ${seeds} seeds, ${rounds} round(s), medians of the CPU of each whole process tree${baseline ? `; baseline ${baseline}` : ''}`,
  );
  const checkouts: { label: string; root: string }[] = [{ label: '', root }];
  if (baseline) checkouts.push({ label: 'baseline ', root: baseline });
  for (const c of checkouts) {
    const built = spawnSync(process.execPath, [join(c.root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
    if (built.status !== 0) throw new Error(`${c.root}: the build failed`);
  }
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-bench-eval-'));
  try {
    const bots = studentBots(dir);
    const commands: { name: string; argv: string[]; cwd?: string }[] = [
      {
        name: `original ./Game x ${seeds}`,
        argv: ['bash', '-c', `for s in $(seq 1 ${seeds}); do ./Game Demo Dummy Dummy Dummy -s $s -i default.cnf -o /dev/null 2>/dev/null; done`],
        cwd: original,
      },
    ];
    const args = (bot: string) => [bot, 'Dummy', 'Dummy', 'Dummy', '--seeds', `1-${seeds}`, '--quiet'];
    for (const c of checkouts) {
      const kit = which.includes('kit')
        ? writeKit(
            c.root,
            join(dir, `kit${c.label ? '-baseline' : ''}`),
            languages.map((l) => bots[l]!),
          )
        : null;
      for (const lang of languages) {
        if (which.includes('cli'))
          commands.push({
            name: `${c.label}arbiter eval (${lang})`,
            argv: [process.execPath, join(c.root, 'bin/arbiter.js'), 'eval', GAME, ...args(bots[lang]!)],
          });
        if (kit)
          commands.push({ name: `${c.label}kit eval (${lang})`, argv: [process.execPath, 'arbiter.mjs', 'eval', ...args(basename(bots[lang]!))], cwd: kit });
      }
      // The C++ bot's first compile is not the evaluation's (a student compiles once, then evaluates many times).
      if (languages.includes('cpp') && which.includes('cli'))
        runTree([process.execPath, join(c.root, 'bin/arbiter.js'), 'eval', GAME, bots['cpp']!, 'Dummy', 'Dummy', 'Dummy', '--seeds', '1', '--quiet']);
    }
    const samples = new Map<string, Sample[]>(commands.map((c) => [c.name, []]));
    for (let i = 0; i < rounds; i++) for (const c of commands) samples.get(c.name)!.push(runTree(c.argv, c.cwd));
    const med = (name: string) => {
      const xs = samples
        .get(name)!
        .map((x) => x.cpu)
        .sort((a, b) => a - b);
      const walls = samples
        .get(name)!
        .map((x) => x.wall)
        .sort((a, b) => a - b);
      return { cpu: xs[Math.floor(xs.length / 2)]!, wall: walls[Math.floor(walls.length / 2)]! };
    };
    const orig = med(commands[0]!.name);
    console.log(`${'command'.padEnd(32)}${'wall'.padStart(10)}${'cpu (tree)'.padStart(12)}${'/ original'.padStart(12)}`);
    for (const c of commands) {
      const m = med(c.name);
      console.log(
        `${c.name.padEnd(32)}${`${m.wall.toFixed(2)} s`.padStart(10)}${`${m.cpu.toFixed(2)} s`.padStart(12)}${`${(m.cpu / orig.cpu).toFixed(2)}x`.padStart(12)}`,
      );
    }
    for (const c of checkouts)
      for (const tool of which)
        for (const lang of languages) {
          const name = `${c.label}${tool === 'cli' ? 'arbiter eval' : 'kit eval'} (${lang})`;
          const m = med(name);
          const ratio = m.cpu / orig.cpu;
          const before = c.label ? null : baseline ? med(`baseline ${name}`) : null;
          console.log(
            `${name}: ${GAME}, ${lang === 'ts' ? 'a TypeScript' : 'a C++'} bot against 3 Dummies, ${seeds} seeds: ${m.cpu.toFixed(2)} s of CPU, the original ${orig.cpu.toFixed(2)} s: ${ratio.toFixed(2)}x (goal <= ${GOAL}x): ${ratio <= GOAL ? 'ok' : 'MISSED'}${before ? `; ${(m.cpu / before.cpu).toFixed(2)}x the baseline's` : ''}`,
          );
        }
    if (which.includes('cli') && which.includes('kit'))
      for (const c of checkouts)
        for (const lang of languages) {
          const kit = med(`${c.label}kit eval (${lang})`).cpu;
          const cli = med(`${c.label}arbiter eval (${lang})`).cpu;
          console.log(`${c.label}kit eval against the CLI's (${lang}): ${(kit / cli).toFixed(2)}x (goal <= 1x): ${kit <= cli ? 'ok' : 'MISSED'}`);
        }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
