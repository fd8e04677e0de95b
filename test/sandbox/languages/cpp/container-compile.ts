// Run by compile-confinement-container.test.ts inside a stand-in for a judge's
// container (its user, its environment, no namespaces): compiles the include
// tricks with whatever toolchain and confinement the judge picks there (auto),
// and writes what came back to a JSON file, for the test to search for the secret.
//   node --import tsx container-compile.ts '{"secret":...,"dataDir":...,"projectEnv":...,"parent":<pid>,"marker":...,"out":<file>}'

import { writeFileSync } from 'node:fs';
import { compileCpp, activeToolchain, resetCppCompileSettings, stopCompileServer, systemConfinement } from '../../../../src/sandbox/languages/cpp/toolchain.ts';
import { includeTricks, procTricks } from './include-tricks.ts';

const args = JSON.parse(process.argv[2]!) as { secret: string; dataDir: string; projectEnv: string; parent: number; marker: string; out: string };
const out: {
  toolchain: string;
  confinement: string | null;
  reason?: string;
  control?: unknown;
  results: { what: string; ok: boolean; kind?: string; said: string }[];
} = { toolchain: activeToolchain(), confinement: systemConfinement(), results: [] };

if (out.confinement === null) {
  // Why not, in the judge's words.
  resetCppCompileSettings({ toolchain: 'system' });
  const r = await compileCpp('int x;\n', 'AIWhy.cc', 'moria');
  out.reason = r.ok ? 'compiled' : JSON.stringify(r);
} else {
  const control = await compileCpp(
    '#include "Player.hh"\n#include <vector>\nstd::vector<int> v(3);\nextern "C" int f() { return v.size(); }\n',
    'AIFine.cc',
    'moria',
  );
  out.control = control.ok ? 'ok' : control;
  const tricks = [...includeTricks(args), ...procTricks([process.pid, args.parent, 1])];
  for (const [what, source] of tricks) {
    const r = await compileCpp(source, 'AISneak.cc', 'moria');
    out.results.push({ what, ok: r.ok, ...(r.ok ? {} : { kind: r.kind }), said: r.ok ? Buffer.from(r.wasm).toString('latin1') : JSON.stringify(r) });
  }
}
stopCompileServer();
// A file, not stdout: the judge's log lines go there.
writeFileSync(args.out, JSON.stringify(out));
