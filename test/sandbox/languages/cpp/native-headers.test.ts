// The starter kit's C++ headers compile natively without a warning: g++ (or
// the system's c++) with -std=c++17 -Wall -Wextra -Werror on the kit's
// AINull.cc and AIDemo.cc, for every game, as a student checks a player (or
// builds it for gdb and the sanitizers: docs/cpp-locally.md). The headers
// mark the judge's wasm imports and exports only when compiling for wasm.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadGames } from '../../../../src/games/registry.ts';
import { cppKitFiles } from '../../../../src/sandbox/languages/cpp/kit.ts';

const CXX = ['g++', 'c++', 'clang++'].find((c) => spawnSync(c, ['--version']).status === 0);

test("the kit's C++ headers: AINull.cc and AIDemo.cc compile natively with -Wall -Wextra -Werror, in every game", {
  skip: CXX ? false : 'no native C++ compiler (g++, c++ or clang++) on this machine',
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'arbiter-native-'));
  try {
    let games = 0;
    for (const game of (await loadGames()).values()) {
      const files = await cppKitFiles(game);
      if (files.length === 0) continue;
      games++;
      for (const f of files) {
        const path = join(dir, game.id, 'cpp', f.path);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, f.data);
      }
      for (const file of ['AINull.cc', 'AIDemo.cc']) {
        const r = spawnSync(CXX!, ['-std=c++17', '-Wall', '-Wextra', '-Werror', '-fsyntax-only', file], { cwd: join(dir, game.id, 'cpp'), encoding: 'utf8' });
        assert.equal(r.status, 0, `${game.id}/${file}:\n${r.stderr}`);
        assert.equal(r.stderr, '', `${game.id}/${file}: no warning`);
      }
    }
    assert.equal(games, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
