// The npm toolchain's compile server: @yowasp/clang (clang and lld built as
// WebAssembly) in a process of its own, kept alive between compiles because
// its first call compiles the toolchain's own module (many seconds on a
// loaded machine) and later calls reuse it. The parent (toolchain.ts) sends
// one job at a time over IPC and kills this process on a timeout or when its
// resident memory passes the cap; a new one is started for the next job.
// A job may name a precompiled header on this machine's disk: it is read once
// and kept here, and put into the job's in-memory tree under the given name.
// Plain JavaScript: it starts without tsx.

import { readFileSync } from 'node:fs';
import { runClang } from '@yowasp/clang';

const STDERR_KEPT = 64 * 1024;
/** Precompiled headers by path (one per game: a few MiB each). */
const pchs = new Map();
const PCHS_KEPT = 8;

function readPch(path) {
  let bytes = pchs.get(path);
  if (!bytes) {
    bytes = new Uint8Array(readFileSync(path));
    if (pchs.size >= PCHS_KEPT) pchs.delete(pchs.keys().next().value);
    pchs.set(path, bytes);
  }
  return bytes;
}

process.on('message', async (job) => {
  let stderr = '';
  const keep = (bytes) => {
    if (bytes && stderr.length < STDERR_KEPT)
      stderr += Buffer.from(bytes)
        .toString('utf8')
        .slice(0, STDERR_KEPT - stderr.length);
  };
  try {
    if (job.pch) {
      try {
        job.files[job.pch.name] = readPch(job.pch.path);
      } catch (err) {
        process.send({ id: job.id, code: 1, stderr: `arbiter: the precompiled header ${job.pch.path} cannot be read: ${err?.message ?? err}\n`, wasm: null });
        return;
      }
    }
    const out = await runClang(job.args, job.files, { stdout: keep, stderr: keep, decodeASCII: false });
    const wasm = out?.[job.output];
    process.send({ id: job.id, code: 0, stderr, wasm: wasm instanceof Uint8Array ? Buffer.from(wasm) : null });
  } catch (err) {
    // runClang throws Exit (with the tool's exit code) when clang or lld fails.
    const code = typeof err?.code === 'number' ? err.code : -1;
    process.send({ id: job.id, code, stderr: code === -1 ? `${stderr}${err?.stack ?? err}` : stderr, wasm: null });
  }
});
process.send({ ready: true });
