// Each game's player.d.ts as the starter kit ships it (selfContainedTypes:
// the declarations the games share inlined) stands alone: the game's built-in
// bots type-check against it in a folder of their own, with the kit's options.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { loadGames } from '../../src/games/registry.ts';
import { besideTypes, KIT_COMPILER_OPTIONS, selfContainedTypes } from '../../src/games/player-types.ts';
import { GENERATED_NOTE } from '../../src/sdk/api-table.ts';

const games = await loadGames();

for (const game of games.values()) {
  test(`${game.id}: the self-contained player.d.ts type-checks the built-in bots on its own`, async () => {
    const types = await selfContainedTypes(game.bots.types);
    assert.doesNotMatch(types, /<reference/);
    // The repository's file says it is generated; a student's has no table to edit.
    assert.ok(readFileSync(game.bots.types, 'utf8').includes(GENERATED_NOTE));
    assert.ok(!types.includes(GENERATED_NOTE));
    const dir = mkdtempSync(join(tmpdir(), `arbiter-types-${game.id}-`));
    try {
      writeFileSync(join(dir, 'player.d.ts'), types);
      const files = ['player.d.ts'];
      for (const path of Object.values(game.bots.builtin)) {
        const source = besideTypes(readFileSync(path, 'utf8'));
        writeFileSync(join(dir, basename(path)), source);
        files.push(basename(path));
      }
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: KIT_COMPILER_OPTIONS, files }));
      execFileSync(process.execPath, [join(process.cwd(), 'node_modules/typescript/bin/tsc'), '-p', dir], { stdio: 'pipe' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
