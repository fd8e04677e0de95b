// `npm run bench cli`: what the `arbiter` command costs to start, as a student
// runs it. Interleaved rounds (each command once per round, in turn), medians:
//   - `arbiter --help` (node bin/arbiter.js, and npx arbiter) against `node -e 0`:
//     wall time (goals: at most 0.3 s, and at most 3 times node's own start);
//   - a 4-Dummy `arbiter play <game> Dummy Dummy Dummy Dummy --seed N` in each game:
//     the CPU time of the whole process tree (the command, its match process),
//     against the original game's `./Game Dummy Dummy Dummy Dummy -s N -i default.cnf`
//     (Bola de Drac: Tonto, its 2012 Dummy, on demo.cnf, and ours on the same board)
//     when ARBITER_ORIGINALS names the folder of the originals (<folder>/<game>/Game;
//     goal: at most 2 times its CPU).
// The CPU of a tree is measured by a small python3 process that makes itself the
// subreaper of what it starts (prctl PR_SET_CHILD_SUBREAPER) and waits for every
// descendant, so a match process that outlives the command is counted too. What
// python3's own start cost in processes it reaped (pyenv's shim runs some before it
// execs python: about 50 ms here, added to every figure until this was taken off) is not counted.
// With ARBITER_BENCH_BASELINE naming another checkout (an earlier commit, built), its `arbiter play`
// is timed too, in the same rounds, and each game's ratio to it printed: a change measured before
// and after in one run.
//   npm run bench cli [rounds] [game...]      (rounds: 5 by default; ARBITER_ORIGINALS=/work/orig)
// It runs the built judge (dist/, built first if stale), not the sources.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGames } from '../src/games/registry.ts';
import { originalsFolder, originalGame } from './originals.ts';
import { buildIfStale } from './build.ts';

const SEED = 7;
const GOALS = { helpWallS: 0.3, helpOverNode: 3, playOverOriginal: 2 };
const root = fileURLToPath(new URL('../', import.meta.url));
/**
 * How each original plays its Dummies: their name and its board. Bola de Drac's engine is the 2012
 * one: its Dummy is Tonto, it has no default board (demo.cnf), and our side plays that board and
 * edition too, so both play the same match.
 */
const ORIGINAL_RUN: Record<string, { dummy: string; board: string; ours?: (board: string) => string[] }> = {
  'bola-de-drac': { dummy: 'Tonto', board: 'demo.cnf', ours: (board) => ['--set', 'edition=2012', '--set', `map=@${board}`] },
};
const bin = join(root, 'bin/arbiter.js');

/** Runs argv (in cwd) as the subreaper's child; its wall time and the CPU of its whole tree, seconds. */
const TREE = `
import ctypes, json, os, resource, sys, time
ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
cwd, argv = sys.argv[1], sys.argv[2:]
# What this process's own start had reaped already (a launcher such as pyenv's python3 shim runs its
# helpers, then execs python: their CPU stays in these figures), taken off the command's.
before = resource.getrusage(resource.RUSAGE_CHILDREN)
t0 = time.monotonic()
pid = os.fork()
if pid == 0:
    os.chdir(cwd)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.execvp(argv[0], argv)
wall, code, deadline = None, None, None
while True:
    try:
        p, st = os.waitpid(-1, 0 if deadline is None else os.WNOHANG)
    except ChildProcessError:
        break
    if p == 0:
        if time.monotonic() > deadline:
            break
        time.sleep(0.01)
        continue
    if p == pid:
        wall, code = time.monotonic() - t0, os.waitstatus_to_exitcode(st)
        deadline = time.monotonic() + 10
ru = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": ru.ru_utime + ru.ru_stime - before.ru_utime - before.ru_stime, "code": code}))
`;

export interface Sample {
  wall: number;
  cpu: number;
}

export function runTree(argv: string[], cwd = root): Sample {
  const env = { ...process.env };
  delete env['ARBITER_FROM_SOURCE'];
  const r = spawnSync('python3', ['-c', TREE, cwd, ...argv], { encoding: 'utf8', env, timeout: 300_000 });
  if (r.status !== 0) throw new Error(`python3 could not measure ${argv.join(' ')}: ${r.stderr || r.error?.message}`);
  const out = JSON.parse(r.stdout) as Sample & { code: number };
  if (out.code !== 0) throw new Error(`${argv.join(' ')} (in ${cwd}) exited with ${out.code}`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (x: number) => `${x.toFixed(3)} s`;
const verdict = (ok: boolean) => (ok ? 'ok' : 'MISSED');

export async function run(args: string[] = []): Promise<void> {
  const rounds = args[0] && /^\d+$/.test(args[0]) ? Number(args[0]) : 5;
  const wanted = args.filter((a) => !/^\d+$/.test(a));
  const games = [...(await loadGames()).keys()].filter((g) => wanted.length === 0 || wanted.includes(g));
  const originals = originalsFolder();
  console.log(
    `machine: ${availableParallelism()} core(s), load average ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')} at start; ${rounds} interleaved rounds, medians`,
  );
  // The build is not part of any figure.
  buildIfStale(root);

  const commands: { name: string; argv: string[]; cwd?: string }[] = [
    { name: 'node -e 0', argv: [process.execPath, '-e', '0'] },
    { name: 'node bin/arbiter.js --help', argv: [process.execPath, bin, '--help'] },
    { name: 'npx arbiter --help', argv: ['npx', 'arbiter', '--help'] },
  ];
  // Node reads NODE_EXTRA_CA_CERTS's certificates at every start (Node 20): a cost of this machine's, in every
  // node figure below and in none of the originals'. Timed without it too, to say how much.
  const extraCas = Boolean(process.env['NODE_EXTRA_CA_CERTS']);
  if (extraCas) commands.push({ name: 'node -e 0, no extra CAs', argv: ['env', '-u', 'NODE_EXTRA_CA_CERTS', process.execPath, '-e', '0'] });
  const missing: string[] = [];
  const baseline = process.env['ARBITER_BENCH_BASELINE'];
  if (baseline) buildIfStale(baseline);
  for (const game of games) {
    const ours = [process.execPath, bin, 'play', game, 'Dummy', 'Dummy', 'Dummy', 'Dummy', '--seed', String(SEED), '-q'];
    commands.push({ name: `arbiter play ${game}`, argv: ours });
    // The same command line (its board options are added below, to both).
    if (baseline) commands.push({ name: `baseline play ${game}`, argv: ours.map((a) => (a === bin ? join(baseline, 'bin/arbiter.js') : a)) });
    if (!originals) continue;
    const dir = join(originals, game);
    if (!existsSync(originalGame(originals, game))) {
      missing.push(game);
      continue;
    }
    const how = ORIGINAL_RUN[game] ?? { dummy: 'Dummy', board: 'default.cnf' };
    const input = existsSync(join(dir, how.board)) ? ['-i', how.board] : [];
    commands.push({
      name: `original ${game}`,
      argv: ['./Game', ...Array<string>(4).fill(how.dummy), '-s', String(SEED), ...input, '-o', '/dev/null'],
      cwd: dir,
    });
    // The same match on our side where the original has no default board: its board and edition.
    if (how.ours && input.length) {
      ours.push(...how.ours(join(dir, how.board)));
      commands.find((c) => c.name === `baseline play ${game}`)?.argv.push(...how.ours(join(dir, how.board)));
    }
  }
  const samples = new Map<string, Sample[]>(commands.map((c) => [c.name, []]));
  for (let i = 0; i < rounds; i++) for (const c of commands) samples.get(c.name)!.push(runTree(c.argv, c.cwd));
  const med = (name: string) => {
    const xs = samples.get(name);
    return xs?.length ? { wall: median(xs.map((x) => x.wall)), cpu: median(xs.map((x) => x.cpu)) } : null;
  };

  const node = med('node -e 0')!;
  console.log(`${'command'.padEnd(30)}${'wall'.padStart(10)}${'cpu (tree)'.padStart(12)}`);
  for (const c of commands) {
    const m = med(c.name)!;
    console.log(`${c.name.padEnd(30)}${s(m.wall).padStart(10)}${s(m.cpu).padStart(12)}`);
  }
  const bare = med('node -e 0, no extra CAs');
  if (bare) console.log(`NODE_EXTRA_CA_CERTS is set: node's start takes ${s(node.cpu - bare.cpu)} of CPU more with it, in every figure of node's here`);
  const help = med('node bin/arbiter.js --help')!;
  console.log(
    `arbiter --help: ${s(help.wall)} wall, ${(help.wall / node.wall).toFixed(1)}x node -e 0 (goals: <= ${GOALS.helpWallS} s, <= ${GOALS.helpOverNode}x): ${verdict(help.wall <= GOALS.helpWallS && help.wall / node.wall <= GOALS.helpOverNode)}`,
  );
  const npx = med('npx arbiter --help')!;
  console.log(`npx arbiter --help: ${s(npx.wall)} wall, ${(npx.wall - help.wall).toFixed(3)} s more than node bin/arbiter.js`);
  for (const game of games) {
    const ours = med(`arbiter play ${game}`)!;
    const original = med(`original ${game}`);
    if (!original) {
      console.log(
        `${game}: arbiter play (4 Dummies, seed ${SEED}) ${s(ours.cpu)} of CPU; no original to compare with${originals ? ` (${originalGame(originals, game)} is not there)` : ' (ARBITER_ORIGINALS unset)'}`,
      );
      continue;
    }
    const before = med(`baseline play ${game}`);
    if (before) console.log(`${game}: arbiter play ${s(ours.cpu)} of CPU, the baseline's ${s(before.cpu)}: ${(ours.cpu / before.cpu).toFixed(2)}x`);
    const ratio = ours.cpu / original.cpu;
    console.log(
      `${game}: arbiter play (4 Dummies, seed ${SEED}) ${s(ours.cpu)} of CPU, the original ${s(original.cpu)}: ${ratio.toFixed(2)}x (goal <= ${GOALS.playOverOriginal}x): ${verdict(ratio <= GOALS.playOverOriginal)}`,
    );
  }
  if (missing.length) console.log(`not measured against an original: ${missing.join(', ')}`);
}
