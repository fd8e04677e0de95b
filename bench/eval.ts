// `npm run bench eval`: what a student's batch evaluation costs. `arbiter eval moria <bot>
// Dummy Dummy Dummy --seeds 1-N` (one warm match process per core, the bot compiled once)
// against the original game run N times, `./Game Demo Dummy Dummy Dummy -s <seed>` for the same
// seeds: the CPU of each whole process tree (the command, its match processes, its compiler; the
// shell loop and every ./Game), interleaved when there is more than one round. The student's bot
// is the shipped Demo under a name of its own (so it is an upload, in its isolate, not the
// judge's built-in), in TypeScript, and in C++ (the game's kit C++ Demo) when a clang is there;
// the original plays its own Demo (which trips an assertion of the original's Board::move on a
// few seeds, seed 35 among them: those runs end there, a little cheaper, and the loop goes on).
// Goal: at most 1.5 times the original's CPU.
//   npm run bench eval [seeds] [rounds] [ts|cpp...]      (100 seeds, 1 round, ts and cpp by default;
//   the original from ARBITER_ORIGINALS=/work/orig: <folder>/moria/Game and default.cnf)
// It runs the built judge (dist/, built first if stale), not the sources.

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTree, type Sample } from './cli.ts';

const GAME = 'moria';
const GOAL = 1.5;
const root = fileURLToPath(new URL('../', import.meta.url));
const bin = join(root, 'bin/arbiter.js');

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

export async function run(args: string[] = []): Promise<void> {
  const numbers = args.filter((a) => /^\d+$/.test(a)).map(Number);
  const seeds = numbers[0] ?? 100;
  const rounds = numbers[1] ?? 1;
  const wanted = args.filter((a) => a === 'ts' || a === 'cpp');
  const languages = wanted.length ? wanted : ['ts', 'cpp'];
  const originals = process.env['ARBITER_ORIGINALS'];
  const original = originals ? join(originals, GAME) : null;
  if (!original || !existsSync(join(original, 'Game')))
    throw new Error(`no original to measure against: ARBITER_ORIGINALS=<folder> with <folder>/${GAME}/Game`);
  console.log(
    `machine: ${availableParallelism()} core(s), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at start; ${seeds} seeds, ${rounds} round(s), medians of the CPU of each whole process tree`,
  );
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.js'), '--if-stale'], { stdio: 'inherit' });
  if (built.status !== 0) throw new Error('the build failed');
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
    for (const lang of languages)
      commands.push({
        name: `arbiter eval (${lang})`,
        argv: [process.execPath, bin, 'eval', GAME, bots[lang]!, 'Dummy', 'Dummy', 'Dummy', '--seeds', `1-${seeds}`, '--quiet'],
      });
    // The C++ bot's first compile is not the evaluation's (a student compiles once, then evaluates many times).
    if (languages.includes('cpp')) runTree([process.execPath, bin, 'eval', GAME, bots['cpp']!, 'Dummy', 'Dummy', 'Dummy', '--seeds', '1', '--quiet']);
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
    console.log(`${'command'.padEnd(28)}${'wall'.padStart(10)}${'cpu (tree)'.padStart(12)}`);
    for (const c of commands) {
      const m = med(c.name);
      console.log(`${c.name.padEnd(28)}${`${m.wall.toFixed(2)} s`.padStart(10)}${`${m.cpu.toFixed(2)} s`.padStart(12)}`);
    }
    for (const lang of languages) {
      const m = med(`arbiter eval (${lang})`);
      const ratio = m.cpu / orig.cpu;
      console.log(
        `arbiter eval ${GAME}, ${lang === 'ts' ? 'a TypeScript' : 'a C++'} bot against 3 Dummies, ${seeds} seeds: ${m.cpu.toFixed(2)} s of CPU, the original ${orig.cpu.toFixed(2)} s: ${ratio.toFixed(2)}x (goal <= ${GOAL}x): ${ratio <= GOAL ? 'ok' : 'MISSED'}`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
