// The copy of a state an engine's next() works on (next() never mutates its
// input), for states made of numbers, typed arrays, the config and an Rng.

type Field = number | string | boolean | ArrayBufferView | readonly number[] | { clone(): unknown } | object;

/**
 * A copy of s: typed arrays and arrays of numbers are copied (except the
 * `shared` ones, which no round writes: the same array serves both states),
 * values with a clone() method (an Rng) are cloned, and the rest (numbers,
 * the frozen config) is kept as it is.
 */
export function copyState<S extends { [K in keyof S]: Field }>(s: S, shared: readonly (keyof S)[] = []): S {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(s) as [keyof S & string, unknown][]) {
    if (shared.includes(key)) out[key] = value;
    else if (ArrayBuffer.isView(value)) out[key] = (value as unknown as Uint8Array).slice();
    else if (Array.isArray(value)) out[key] = value.slice();
    else if (typeof value === 'object' && value !== null && typeof (value as { clone?: unknown }).clone === 'function') out[key] = (value as { clone(): unknown }).clone();
    else out[key] = value;
  }
  return out as S;
}
