// The processes that run bots start without the judge's credentials: a bot that got out of its isolate and
// read /proc/self/environ would find no REDIS_URL (a worker's), no database URL and no secret.

import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { sharedPool } from '../../src/sandbox/match-process/match-pool.ts';
import { botProcessEnv, SECRET_SETTINGS } from '../../src/sandbox/system/child-env.ts';
import { bot, playAgainstAdders } from './helpers.ts';

after(() => sharedPool.shutdown());

const SECRETS: Record<string, string> = {
  REDIS_URL: 'redis://:hunter2@redis.internal:6379',
  DATABASE_URL: 'postgresql://arbiter:hunter2@db.internal/arbiter',
  GATE_SEED_SECRET: 'hunter2-gate',
  ARBITER_TOKEN: 'arb_hunter2',
  REGISTRATION_INVITE_CODE: 'hunter2-invite',
  SMTP_PASSWORD: 'hunter2-smtp',
  AWS_SECRET_ACCESS_KEY: 'hunter2-aws',
  AWS_ACCESS_KEY_ID: 'AKIAHUNTER2',
  GITHUB_TOKEN: 'ghp_hunter2',
};

test('the credentials a judge holds are left out, settings and the rest kept', () => {
  // Settings and variables named close to a credential's (PASSWORD_*, TOKEN*) that are none.
  const kept = {
    PATH: '/usr/bin',
    ARBITER_GAMES_PATH: '/srv/games',
    PASSWORD_HASH_COST: '15',
    PASSWORD_FAILURES_PER_IP: '50',
    MATCH_NICE_OFFSET: '5',
    TOKENIZER: 'kept',
  };
  assert.deepEqual(botProcessEnv({ ...SECRETS, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', ...kept }), kept);
  for (const name of SECRET_SETTINGS) assert.equal(botProcessEnv({ [name]: 'x' })[name], undefined, name);
});

test("a match process's environment holds none of the credentials of the process that started it", async () => {
  sharedPool.shutdown(); // processes started from now on, with the secrets in this process's environment
  const saved = { ...process.env };
  Object.assign(process.env, SECRETS, { ARBITER_KEEP_ME: 'kept' });
  try {
    const seen: string[] = [];
    const out = await playAgainstAdders(bot('Calm', 'play() { add(1); }'), {}, 3);
    assert.equal(out.replay.players[1]!.frozenReason ?? null, null);
    for (const pid of sharedPool.pids) seen.push(readFileSync(`/proc/${pid}/environ`, 'utf8'));
    assert.ok(seen.length > 0, 'a match process to look at');
    for (const environ of seen) {
      const names = environ.split('\0').map((kv) => kv.split('=')[0]);
      for (const name of Object.keys(SECRETS)) assert.ok(!names.includes(name), `${name} is not in a match process's environment`);
      assert.ok(!environ.includes('hunter2'), 'no secret value either');
      assert.ok(!names.includes('NODE_EXTRA_CA_CERTS'));
      assert.ok(names.includes('ARBITER_KEEP_ME') && names.includes('PATH'), 'the rest is kept');
    }
  } finally {
    for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
    Object.assign(process.env, saved);
  }
});
