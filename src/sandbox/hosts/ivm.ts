// isolated-vm for the Node that runs this process. Its 5.x line builds on
// Node 20 and not on 22+ (V8's API moved); its 6.x line builds on 22+ and not
// on 20. package.json lists both as optional dependencies (5.0.4 as
// `isolated-vm`, 6.x as `isolated-vm-6`): npm builds the one that fits and
// drops the other, and this module loads whichever is there. Their API, as
// Arbiter uses it, is the same. The types are 5.0.4's (tsconfig paths fall
// back to 6.x's where 5.0.4 is absent: tsconfig's `isolated-vm-types`, a name
// used in type imports only, since tsx applies tsconfig paths at run time).

import { createRequire } from 'node:module';
import type IvmTypes from 'isolated-vm-types';

const require = createRequire(import.meta.url);

function loadIsolatedVm(): typeof IvmTypes {
  const failures: string[] = [];
  for (const name of ['isolated-vm', 'isolated-vm-6']) {
    try {
      return require(name) as typeof IvmTypes;
    } catch (err) {
      // Not installed, or built for another Node (a node_modules carried over from another version).
      failures.push(`${name}: ${(err as Error).message.split('\n')[0]}`);
    }
  }
  throw new Error(`no isolated-vm builds for Node ${process.versions.node} here (${failures.join('; ')}): run npm install (or npm rebuild) with this Node`);
}

const ivm = loadIsolatedVm();
// eslint-disable-next-line @typescript-eslint/no-namespace
declare namespace ivm {
  type Isolate = IvmTypes.Isolate;
  type Context = IvmTypes.Context;
  type Script = IvmTypes.Script;
  type Reference<T = unknown> = IvmTypes.Reference<T>;
  type ExternalCopy<T = unknown> = IvmTypes.ExternalCopy<T>;
}
export default ivm;
