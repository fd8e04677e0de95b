// The bot's view, declared once per game: which typed arrays the host copies
// into every bot each round and what each slot holds. The host's encoder
// (the game's encodeView) and the bot API's decoder (bot-api.ts, bundled into
// the isolate) both read their indices, strides and bit fields from the same
// declaration, so neither side spells a magic index. A C++ header can be
// generated from it the same way.
//
// Pure module: no Node APIs (it is bundled into bots' isolates).

export type ElementType = 'Int8' | 'Uint8' | 'Int16' | 'Uint16' | 'Int32' | 'Float64';

/** A field one slot wide, or [name, width] for a run of slots (one per player, say). */
export type FieldSpec = string | readonly [name: string, width: number];

export interface ArraySpec {
  readonly type: ElementType;
  /**
   * Records of these fields, one after another (`units`: player, health,
   * pos per unit). A single record (`meta`) is the same with one record.
   * Without fields or bits, every slot is one value (a board's cell).
   */
  readonly fields?: readonly FieldSpec[];
  /** One packed value per slot: bit fields from the lowest bit up, [name, bits]. */
  readonly bits?: readonly (readonly [name: string, bits: number])[];
  /** What one record (or slot) is, for people and generated headers. */
  readonly doc: string;
}

export type ViewSpec = Readonly<Record<string, ArraySpec>>;

type NameOf<F> = F extends string ? F : F extends readonly [infer N extends string, number] ? N : never;
type FieldNames<A> = A extends { readonly fields: readonly (infer F)[] } ? NameOf<F> : never;
type BitNames<A> = A extends { readonly bits: readonly (infer B)[] } ? NameOf<B> : never;

export interface ArrayLayout<F extends string = string, B extends string = string> {
  readonly name: string;
  readonly type: ElementType;
  readonly doc: string;
  /** Slots per record: 1 for plain and packed arrays. */
  readonly stride: number;
  /** Offset of each field inside a record. */
  readonly at: Readonly<Record<F, number>>;
  /** Slots of each field (1, or the width of a run). */
  readonly width: Readonly<Record<F, number>>;
  /** Bit position and mask of each packed field. */
  readonly shift: Readonly<Record<B, number>>;
  readonly mask: Readonly<Record<B, number>>;
}

export type ViewLayout<S extends ViewSpec> = { readonly [K in keyof S & string]: ArrayLayout<FieldNames<S[K]>, BitNames<S[K]>> };

const CONSTRUCTORS = {
  Int8: Int8Array,
  Uint8: Uint8Array,
  Int16: Int16Array,
  Uint16: Uint16Array,
  Int32: Int32Array,
  Float64: Float64Array,
} as const;

const BITS: Record<ElementType, number> = { Int8: 8, Uint8: 8, Int16: 16, Uint16: 16, Int32: 32, Float64: 0 };

export function defineView<const S extends ViewSpec>(spec: S): ViewLayout<S> {
  const out: Record<string, ArrayLayout> = {};
  for (const name of Object.keys(spec)) {
    const a = spec[name]!;
    if (a.fields && a.bits) throw new Error(`view ${name}: fields or bits, not both`);
    const at: Record<string, number> = {};
    const width: Record<string, number> = {};
    const shift: Record<string, number> = {};
    const mask: Record<string, number> = {};
    let stride = 1;
    if (a.fields) {
      stride = 0;
      for (const f of a.fields) {
        const [fname, w] = typeof f === 'string' ? [f, 1] : [f[0], f[1]];
        if (Object.hasOwn(at, fname) || !(Number.isInteger(w) && w >= 1)) throw new Error(`view ${name}: bad field ${fname}`);
        at[fname] = stride;
        width[fname] = w;
        stride += w;
      }
    }
    if (a.bits) {
      let bit = 0;
      for (const [fname, bits] of a.bits) {
        if (Object.hasOwn(shift, fname) || !(Number.isInteger(bits) && bits >= 1)) throw new Error(`view ${name}: bad bit field ${fname}`);
        shift[fname] = bit;
        mask[fname] = 2 ** bits - 1;
        bit += bits;
      }
      if (bit > BITS[a.type]) throw new Error(`view ${name}: ${bit} bits do not fit in ${a.type}`);
    }
    out[name] = Object.freeze({ name, type: a.type, doc: a.doc, stride, at, width, shift, mask });
  }
  return Object.freeze(out) as unknown as ViewLayout<S>;
}

/** A zeroed array of `records` records of the layout. */
export function allocate<A extends ArrayLayout>(layout: A, records: number): ViewArrayOf<A['type']> {
  return new CONSTRUCTORS[layout.type](records * layout.stride) as ViewArrayOf<A['type']>;
}

type ViewArrayOf<T extends ElementType> = InstanceType<(typeof CONSTRUCTORS)[T]>;

/**
 * One record from named values, in a new array (a view's `meta`): every
 * field must be given, runs as arrays of their exact width.
 */
export function record<F extends string>(layout: ArrayLayout<F, string>, values: Readonly<Record<F, number | ArrayLike<number>>>): ViewArrayOf<ElementType> {
  const out = allocate(layout, 1);
  for (const f of Object.keys(layout.at) as F[]) {
    const v = values[f];
    const at = layout.at[f];
    const w = layout.width[f];
    if (typeof v === 'number') {
      if (w !== 1) throw new Error(`view ${layout.name}: ${f} needs ${w} values`);
      out[at] = v;
    } else {
      if (!v || v.length !== w) throw new Error(`view ${layout.name}: ${f} needs ${w} values`);
      for (let k = 0; k < w; k++) out[at + k] = v[k]!;
    }
  }
  return out;
}

/** Packs named bit fields into one slot value. */
export function pack<B extends string>(layout: ArrayLayout<string, B>, values: Readonly<Record<B, number>>): number {
  let v = 0;
  for (const f of Object.keys(layout.shift) as B[]) v += (values[f] & layout.mask[f]) * 2 ** layout.shift[f];
  return v;
}

/** One bit field of a packed slot value. */
export function unpack<B extends string>(layout: ArrayLayout<string, B>, value: number, field: B): number {
  return (value >>> layout.shift[field]) & layout.mask[field];
}

/**
 * What is wrong with a view against its declaration: a missing or extra
 * array, a wrong element type, a length that is not whole records.
 */
export function checkView(layouts: Readonly<Record<string, ArrayLayout>>, view: Readonly<Record<string, unknown>>): string[] {
  const problems: string[] = [];
  for (const [name, layout] of Object.entries(layouts)) {
    const a = view[name];
    if (!(a instanceof CONSTRUCTORS[layout.type])) problems.push(`${name}: expected ${layout.type}Array`);
    else if (a.length % layout.stride !== 0) problems.push(`${name}: length ${a.length} is not whole records of ${layout.stride}`);
  }
  for (const name of Object.keys(view)) if (!Object.hasOwn(layouts, name)) problems.push(`${name}: not declared`);
  return problems;
}
