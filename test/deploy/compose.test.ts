// docker-compose.yml keeps the judge's rules for one host: every container
// keeps Docker's default seccomp and AppArmor profiles (no security_opt, no
// cap_add, nothing privileged, "unconfined" nowhere: the system clang is
// confined with Landlock there, src/sandbox/languages/cpp/confine.ts), and the
// workers, which run the bots, hold no database secret.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const FILE = join(import.meta.dirname, '../../docker-compose.yml');
const text = readFileSync(FILE, 'utf8');
const compose = parse(text, { merge: true }) as { services: Record<string, Record<string, unknown>> };

test("every container keeps the runtime's default seccomp and AppArmor profiles and no added privilege", () => {
  assert.doesNotMatch(text, /unconfined/i);
  const names = Object.keys(compose.services);
  for (const part of ['api', 'recorder', 'scheduler', 'worker']) assert.ok(names.includes(part), `${part} is a service`);
  for (const [name, service] of Object.entries(compose.services)) {
    for (const key of ['security_opt', 'cap_add', 'privileged', 'pid', 'ipc', 'userns_mode', 'devices'])
      assert.equal(service[key], undefined, `${name}: ${key}`);
    assert.notEqual(service['network_mode'], 'host', `${name}: the host's network`);
  }
});

test('the workers run the bots and compile their files without the database secret', () => {
  const worker = compose.services['worker']!;
  assert.doesNotMatch(JSON.stringify(worker), /DATABASE_URL|POSTGRES_PASSWORD/);
  assert.deepEqual(Object.keys(worker['depends_on'] as object), ['redis']);
});
