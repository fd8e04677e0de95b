// Regenerates docs/screenshots/: each game in the viewer (a mid-game round of
// Demo, Dummy, Demo, Null on seed 7, the whole viewer at 1100 px) and one at
// phone width. Uses scripts/chromium.ts's Chromium.
//   node --no-node-snapshot --import tsx scripts/screenshots.ts [gameId...]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadGames } from '../src/games/registry.ts';
import { decodeReplay } from '../src/match/replay-io.ts';
import { readFileSync } from 'node:fs';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'docs', 'screenshots');
mkdirSync(out, { recursive: true });
const tmp = mkdtempSync(join(tmpdir(), 'arbiter-shots-'));
const node = (args: string[]) => {
  const r = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', ...args], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}`);
  return r.stdout;
};

const wanted = process.argv.slice(2);
const games = [...(await loadGames()).values()].filter((g) => wanted.length === 0 || wanted.includes(g.id));
const phoneGame = games.some((g) => g.id === 'moria') ? 'moria' : games[0]?.id;
try {
  for (const game of games) {
    const replayFile = join(tmp, `${game.id}.json.gz`);
    node(['bin/arbiter.js', 'play', game.id, 'Demo', 'Dummy', 'Demo', 'Null', '--seed', '7', '-o', replayFile]);
    const rounds = decodeReplay(readFileSync(replayFile)).rounds.length - 1;
    const round = String(Math.round(rounds * 0.6));
    node(['scripts/snap-replay.ts', replayFile, round, join(out, `${game.id}.png`), '1100', '--full', '--height', '900']);
    console.log(`${game.id}: round ${round} of ${rounds} → docs/screenshots/${game.id}.png`);
    if (game.id === phoneGame) {
      node(['scripts/snap-replay.ts', replayFile, round, join(out, `${game.id}-phone.png`), '390', '--full', '--height', '844']);
      console.log(`${game.id}: phone width → docs/screenshots/${game.id}-phone.png`);
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
