// A game's first state, made once per seed and config and copied after: a map generator that costs
// milliseconds runs again and again for the same seeds in one match process (a gate, a tournament's
// rounds), where a copy costs hundredths of one. The last few are kept, the oldest forgotten first.

/** How many seeds and configs each game remembers the first state of. */
const FIRST_STATES_KEPT = 16;

/**
 * `make(config, seed)`, remembered for the last FIRST_STATES_KEPT seeds and configs. The state answered is
 * the one kept: the caller copies what a match may change (its create()), never hands it out as it is.
 */
export function rememberFirstStates<C, S>(make: (config: C, seed: number) => S): (config: C, seed: number) => S {
  const kept = new Map<string, S>();
  return (config, seed) => {
    const key = `${seed} ${JSON.stringify(config)}`;
    let first = kept.get(key);
    if (first === undefined) {
      first = make(config, seed);
      if (kept.size >= FIRST_STATES_KEPT) kept.delete(kept.keys().next().value!);
      kept.set(key, first);
    }
    return first;
  };
}
