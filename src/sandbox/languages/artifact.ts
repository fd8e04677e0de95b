// A compiled bot, typed by what the host has to do with it, not by the
// language it came from: a script the isolate evaluates, or a WebAssembly
// module the runtime instantiates. The hosts switch on `kind`.
//
// Compiled bots travel as strings (the compile caches, match requests, the
// play page's compile response), so this file is the one place that turns an
// artifact into a string and back. A script is its code as it is (what every
// compiled script has always been: it begins with the wrapper's
// `(function(){`); any other kind is a tagged header `/*arbiter:<kind>:<version>*/`
// and a JSON body. Strings written before the tag had a version
// (`/*arbiter:cpp*/`) still read as what they were; a tag this judge does not
// know is an error of the judge (ArtifactFormatError), never run as a script
// and never blamed on the bot. Node-free: the play page's bundle reads it too.

import { SandboxInfraError } from '../../match/bot-host.ts';

export type BotArtifact =
  /** Code the bot's isolate evaluates: an expression whose value is the bot's exports; `map` maps its positions back to the author's file. */
  | { kind: 'script'; code: string; map?: number[][][] }
  /** A wasm32-wasip1 module the runtime instantiates through the C++ player's interface (cpp/cpp-player.ts: its exports and imports), with the name and game its header declared. */
  | { kind: 'wasm'; name: string; game: string; wasm: Uint8Array };

export class ArtifactFormatError extends Error {
  override name = 'ArtifactFormatError';
}

const TAG = '/*arbiter:';
const WASM_TAG = '/*arbiter:wasm:1*/';
/** How a compiled C++ player was written before artifacts had a version: the same JSON body. */
const LEGACY_WASM_TAG = '/*arbiter:cpp*/';

interface WasmBody {
  name: string;
  game: string;
  /** base64 */
  wasm: string;
}

type NodeBuffer = { from(data: Uint8Array | string, encoding?: string): Uint8Array & { toString(encoding: string): string } };
const NodeBufferClass = (globalThis as { Buffer?: NodeBuffer }).Buffer;

function toBase64(bytes: Uint8Array): string {
  if (NodeBufferClass) return NodeBufferClass.from(bytes).toString('base64');
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  if (NodeBufferClass) {
    // A copy with a buffer of its own (Node may hand out a slice of a shared pool): a host may pass `.buffer` on.
    return new Uint8Array(NodeBufferClass.from(text, 'base64'));
  }
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

/** The artifact as the string the caches and messages carry. */
export function serializeArtifact(a: BotArtifact): string {
  switch (a.kind) {
    case 'script':
      return a.code;
    case 'wasm':
      return WASM_TAG + JSON.stringify({ name: a.name, game: a.game, wasm: toBase64(a.wasm) } satisfies WasmBody);
    default:
      throw new ArtifactFormatError(`unknown artifact kind ${String((a as { kind: unknown }).kind)}`);
  }
}

/** What kind of artifact a string holds, without decoding its body. */
export function artifactKind(text: string): BotArtifact['kind'] {
  if (!text.startsWith(TAG)) return 'script';
  if (text.startsWith(WASM_TAG) || text.startsWith(LEGACY_WASM_TAG)) return 'wasm';
  throw new ArtifactFormatError(`a compiled bot in a format this judge does not read (${text.slice(0, 40)}...): it must be compiled again`);
}

/**
 * The artifact a string holds (a script's map is not in the string: the
 * compile keeps it beside). Throws ArtifactFormatError for a tag it does not
 * know and for a damaged body.
 */
export function parseArtifact(text: string): BotArtifact {
  if (artifactKind(text) === 'script') return { kind: 'script', code: text };
  const body = text.slice(text.startsWith(WASM_TAG) ? WASM_TAG.length : LEGACY_WASM_TAG.length);
  let parsed: WasmBody;
  try {
    parsed = JSON.parse(body) as WasmBody;
  } catch {
    throw new ArtifactFormatError('a compiled module whose body is damaged');
  }
  if (typeof parsed?.name !== 'string' || typeof parsed.game !== 'string' || typeof parsed.wasm !== 'string')
    throw new ArtifactFormatError('a compiled module whose body is damaged');
  return { kind: 'wasm', name: parsed.name, game: parsed.game, wasm: fromBase64(parsed.wasm) };
}

/**
 * A host's read of the compiled bot it is handed: a form this judge cannot read (ArtifactFormatError) is the
 * judge's doing, never the bot's, so it is a SandboxInfraError (the match is abandoned and played again).
 */
export function parseArtifactForHost(text: string): BotArtifact {
  try {
    return parseArtifact(text);
  } catch (err) {
    if (err instanceof ArtifactFormatError) throw new SandboxInfraError(`the compiled bot cannot be loaded: ${err.message}`, { cause: err });
    throw err;
  }
}
