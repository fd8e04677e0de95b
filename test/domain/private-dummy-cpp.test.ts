// A private Dummy written in C++ (the course's way: `#define PLAYER_NAME
// Dummy` in a .cc): refused before any compile when its name or its
// `// GAME:` line is wrong; otherwise compiled by the judge's compile
// (src/sandbox/languages/javascript/compile.ts compileBot), judged (a compile error is refused), stored
// as AIDummy.cc, and from then on the gate plays it in every Dummy seat, as
// it plays a JavaScript one (its cerr is in those seats' logs). The compiles
// make the installing tests slow (ARBITER_SLOW_TESTS=1).

import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { adminGrant } from '../../src/cli/admin.ts';
import { matchSpecFromDb } from '../../src/domain/match-setup.ts';
import { multipart } from '../helpers/app.ts';
import { slow } from '../helpers/slow.ts';
import { botAs, startTestJudge, TEST_GATE_CONFIG, type TestJudge } from '../helpers/judge.ts';

const MARKER = 'private-cpp-dummy-5c1e';
/** A C++ Dummy that stays put and says so in its log every round. */
const CPP_DUMMY = `// The deployment's own Dummy, in C++.
#include "Player.hh"

#define PLAYER_NAME Dummy

struct PLAYER_NAME : public Player {

  static Player* factory () {
    return new PLAYER_NAME;
  }

  virtual void play () {
    cerr << "${MARKER} " << round() << endl;
  }
};

RegisterPlayer(PLAYER_NAME);
`;

let judge: TestJudge;
let admin: { authorization: string };
let alice: string;

before(async () => {
  judge = await startTestJudge({ gate: { config: TEST_GATE_CONFIG }, concurrency: 2 });
  const token = await judge.user('teacher');
  await adminGrant(judge.db, 'grant', 'teacher');
  admin = { authorization: `Bearer ${token}` };
  alice = await judge.user('alice');
});
after(async () => {
  await judge?.close();
});

/** Uploads a .cc as the admin's API takes a file (multipart). */
const upload = (source: string, filename = 'AIMyDummy.cc') => {
  const form = multipart({}, { filename, content: source });
  return judge.app.inject({ method: 'PUT', url: '/api/admin/games/moria/dummy', headers: { ...admin, ...form.headers }, payload: form.payload });
};

test('a C++ Dummy with another name, or for another game, is refused before it is compiled', async () => {
  const named = await upload(CPP_DUMMY.replace('#define PLAYER_NAME Dummy', '#define PLAYER_NAME Dumbo'));
  assert.equal(named.statusCode, 400, named.body);
  assert.match(named.json().message, /#define PLAYER_NAME Dummy/);
  const other = await upload(CPP_DUMMY.replace('#include', '// GAME: walking-dead\n#include'));
  assert.equal(other.statusCode, 400, other.body);
  assert.match(other.json().message, /GAME: walking-dead .*for moria/);
  // Without a file name (JSON), the text says it is C++.
  const json = await judge.app.inject({
    method: 'PUT',
    url: '/api/admin/games/moria/dummy',
    headers: admin,
    payload: { source: CPP_DUMMY.replace('PLAYER_NAME Dummy', 'PLAYER_NAME Dumbo') },
  });
  assert.equal(json.statusCode, 400);
  assert.match(json.json().message, /#define PLAYER_NAME Dummy/);
  assert.equal(await judge.db.privateDummy.count(), 0);
});

test("a C++ Dummy that does not compile is refused with the compiler's error, and nothing is installed", slow, async () => {
  const broken = await upload(CPP_DUMMY.replace('cerr <<', 'int x = ;\n    cerr <<'));
  assert.equal(broken.statusCode, 422, broken.body);
  assert.match(broken.json().message, /compile error: .*AIDummy\.cc:13:\d+: error: expected expression/);
  assert.equal(await judge.db.privateDummy.count(), 0);
});

test('a C++ Dummy is compiled, judged and installed as AIDummy.cc; the gate plays it in every Dummy seat', slow, async () => {
  const t0 = Date.now();
  const res = await upload(CPP_DUMMY);
  assert.equal(res.statusCode, 200, res.body);
  assert.deepEqual([res.json().installed, res.json().filename], [true, 'AIDummy.cc']);
  const row = await judge.db.privateDummy.findUniqueOrThrow({ where: { game: 'moria' } });
  assert.deepEqual([row.filename, row.source], ['AIDummy.cc', CPP_DUMMY]);
  const line = await judge.db.auditEntry.findFirstOrThrow({ where: { action: 'dummy.install' } });
  assert.equal(line.targetId, 'moria');
  console.log(`# installed (compile, check and self-play) in ${Date.now() - t0} ms`);

  // Walker (a test player: a copy of a shipped one is refused at upload) surely beats three Dummies that stay put.
  const sub = await judge.submit(alice, botAs('Walker', 'Strider'));
  assert.equal(sub.statusCode, 202, JSON.stringify(sub.body));
  const v = await judge.verdict(sub.body.id, 600_000);
  assert.equal(v.status, 'qualified', v.reason);
  const dummyMatches = v.gateMatches.filter((m: { gateStep: string }) => m.gateStep === 'dummy');
  assert.ok(dummyMatches.length > 0);
  for (const m of dummyMatches) {
    const seats = await judge.db.participant.findMany({ where: { matchId: m.id }, orderBy: { seat: 'asc' } });
    for (const p of seats.filter((x) => x.submissionId === null)) {
      assert.deepEqual([p.name, p.builtinName], ['Dummy', 'Dummy']);
      assert.ok(p.log?.includes(`${MARKER} 1`), `seat ${p.seat} of match ${m.id} ran the C++ Dummy: ${p.log?.slice(0, 120)}`);
    }
    const { spec } = await matchSpecFromDb(judge.db, m.id);
    assert.equal(spec.seats.filter((s) => s.filename === 'AIDummy.cc' && s.source === CPP_DUMMY).length, 3);
  }
  console.log(`# gate: ${v.status} after ${dummyMatches.length} Dummy matches with the C++ Dummy, ${Date.now() - t0} ms in all`);
});
