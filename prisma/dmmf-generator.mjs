#!/usr/bin/env node
// A tiny Prisma generator (the JSON-RPC protocol of @prisma/generator-helper:
// requests arrive as lines on stdin, answers go out on stderr) that writes the
// schema's full DMMF to its output folder as dmmf.json. The migration test
// compares it with what the migrated Postgres catalog holds.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const rl = createInterface({ input: process.stdin });
const reply = (id, result) => process.stderr.write(JSON.stringify({ jsonrpc: '2.0', id, result }) + '\n');
rl.on('line', (line) => {
  if (!line.trim()) return;
  const msg = JSON.parse(line);
  if (msg.method === 'getManifest') {
    reply(msg.id, { manifest: { prettyName: 'DMMF (for the migration test)', defaultOutput: '../src/db/generated-dmmf', requiresGenerators: [] } });
  } else if (msg.method === 'generate') {
    const out = msg.params.generator.output.value;
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'dmmf.json'), JSON.stringify(msg.params.dmmf.datamodel, null, 1));
    reply(msg.id, null);
  }
});
