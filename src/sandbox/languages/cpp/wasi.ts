// The minimal WASI (preview 1) a C++ player's module gets: stdout and stderr
// go to the bot's log; stdin is empty; no files, no environment, no
// arguments; exit and abort stop the bot with the reason; the clocks and
// random_get are deterministic (a match replays identically). Anything else
// answers ENOSYS. Pure: bundled into the isolate.

import { Rng } from '../../../sdk/rng.ts';

const ESUCCESS = 0;
const EBADF = 8;
const EINVAL = 28;
const ENOSYS = 52;
const ESPIPE = 70;

/** Thrown through the module when it calls proc_exit: the runtime turns it into a freeze. */
export class WasiExit {
  constructor(readonly code: number) {}
}

export interface WasiHost {
  memory(): ArrayBuffer;
  /** Text the module wrote on fd 1 or 2. */
  write(fd: number, text: string): void;
  /** Seeds random_get: the same for the same match and player. */
  seed: number;
}

/** UTF-8 to a string, without TextDecoder (not in an isolate). */
export function decodeUtf8(bytes: Uint8Array): string {
  let out = '';
  let chunk: number[] = [];
  for (let k = 0; k < bytes.length; ) {
    const b = bytes[k]!;
    let cp = 0xfffd;
    let n = 1;
    if (b < 0x80) cp = b;
    else if (b >= 0xc2 && b < 0xe0 && k + 1 < bytes.length) {
      cp = ((b & 0x1f) << 6) | (bytes[k + 1]! & 0x3f);
      n = 2;
    } else if (b >= 0xe0 && b < 0xf0 && k + 2 < bytes.length) {
      cp = ((b & 0x0f) << 12) | ((bytes[k + 1]! & 0x3f) << 6) | (bytes[k + 2]! & 0x3f);
      n = 3;
    } else if (b >= 0xf0 && b < 0xf5 && k + 3 < bytes.length) {
      cp = ((b & 0x07) << 18) | ((bytes[k + 1]! & 0x3f) << 12) | ((bytes[k + 2]! & 0x3f) << 6) | (bytes[k + 3]! & 0x3f);
      n = 4;
    }
    k += n;
    if (cp > 0xffff) {
      cp -= 0x10000;
      chunk.push(0xd800 + (cp >> 10), 0xdc00 + (cp & 0x3ff));
    } else chunk.push(cp);
    if (chunk.length > 4096) {
      out += String.fromCharCode(...chunk);
      chunk = [];
    }
  }
  return out + String.fromCharCode(...chunk);
}

/** The wasi_snapshot_preview1 functions the module imports, by name (unknown names get ENOSYS). */
export function wasiImports(host: WasiHost, wanted: readonly string[]): Record<string, (...args: number[]) => number> {
  const rng = new Rng(host.seed);
  // Nanoseconds: every reading is a millisecond after the previous one.
  let clock = 1_700_000_000_000_000_000n;
  const u8 = () => new Uint8Array(host.memory());
  const dv = () => new DataView(host.memory());
  const inside = (ptr: number, len: number) => ptr >= 0 && len >= 0 && ptr + len <= host.memory().byteLength;

  const known: Record<string, (...args: number[]) => number> = {
    fd_write(fd, iovs, count, nwritten) {
      if (fd !== 1 && fd !== 2) return EBADF;
      if (!inside(iovs, count * 8) || !inside(nwritten, 4)) return EINVAL;
      const view = dv();
      let total = 0;
      for (let k = 0; k < count; k++) {
        const ptr = view.getUint32(iovs + 8 * k, true);
        const len = view.getUint32(iovs + 8 * k + 4, true);
        if (!inside(ptr, len)) return EINVAL;
        host.write(fd, decodeUtf8(u8().subarray(ptr, ptr + len)));
        total += len;
      }
      dv().setUint32(nwritten, total, true);
      return ESUCCESS;
    },
    fd_read(fd, _iovs, _count, nread) {
      if (fd !== 0) return EBADF;
      if (!inside(nread, 4)) return EINVAL;
      dv().setUint32(nread, 0, true); // stdin is empty
      return ESUCCESS;
    },
    fd_seek: () => ESPIPE,
    fd_close: () => ESUCCESS,
    fd_fdstat_get(fd, ptr) {
      if (fd < 0 || fd > 2) return EBADF;
      if (!inside(ptr, 24)) return EINVAL;
      u8().fill(0, ptr, ptr + 24);
      dv().setUint8(ptr, 2); // a character device
      return ESUCCESS;
    },
    fd_prestat_get: () => EBADF,
    environ_sizes_get(count, size) {
      if (!inside(count, 4) || !inside(size, 4)) return EINVAL;
      dv().setUint32(count, 0, true);
      dv().setUint32(size, 0, true);
      return ESUCCESS;
    },
    environ_get: () => ESUCCESS,
    args_sizes_get(count, size) {
      if (!inside(count, 4) || !inside(size, 4)) return EINVAL;
      dv().setUint32(count, 0, true);
      dv().setUint32(size, 0, true);
      return ESUCCESS;
    },
    args_get: () => ESUCCESS,
    clock_res_get(_id, ptr) {
      if (!inside(ptr, 8)) return EINVAL;
      dv().setBigUint64(ptr, 1_000_000n, true);
      return ESUCCESS;
    },
    clock_time_get(_id, _precision, ptr) {
      if (!inside(ptr, 8)) return EINVAL;
      clock += 1_000_000n;
      dv().setBigUint64(ptr, clock, true);
      return ESUCCESS;
    },
    random_get(ptr, len) {
      if (!inside(ptr, len)) return EINVAL;
      const bytes = u8();
      for (let k = 0; k < len; k++) bytes[ptr + k] = rng.next() & 0xff;
      return ESUCCESS;
    },
    sched_yield: () => ESUCCESS,
    proc_exit(code) {
      throw new WasiExit(code);
    },
  };
  const out: Record<string, (...args: number[]) => number> = {};
  for (const name of wanted) out[name] = known[name] ?? (() => ENOSYS);
  return out;
}
