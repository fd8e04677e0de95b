// The npm toolchain's compile server: @yowasp/clang (clang and lld built as
// WebAssembly) in a process of its own, kept alive between compiles because
// its first call compiles the toolchain's own module (many seconds on a
// loaded machine) and later calls reuse it. The parent (toolchain.ts) sends
// one job at a time over IPC and kills this process on a timeout or when its
// resident memory passes the cap; a new one is started for the next job.
// Plain JavaScript: it starts without tsx.

import { runClang } from '@yowasp/clang';

const STDERR_KEPT = 64 * 1024;

process.on('message', async (job) => {
  let stderr = '';
  const keep = (bytes) => {
    if (bytes && stderr.length < STDERR_KEPT) stderr += Buffer.from(bytes).toString('utf8').slice(0, STDERR_KEPT - stderr.length);
  };
  try {
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
