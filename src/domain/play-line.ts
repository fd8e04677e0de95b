// The play line of a match, the one every page, the API and the CLI print:
// the tournament pages, the gate, the match page, `arbiter submit`. It is
// the starter kit's (`node arbiter.mjs play ...` in the folder of the game's
// kit, with nothing but Node): what a student has. Pure (no imports), so the
// serializers and the pages share it.

/**
 * The shell line that replays a match with the game's starter kit: the seats
 * in order (seat 0 first), built-ins by name, a player's file as `file` says
 * (the file its owner submitted) or named after it; the seed and the
 * settings. The game is the kit's own, so the line does not name it.
 */
export function playCommandLine(
  _game: string,
  seed: number,
  seats: { name: string; builtin: boolean; file?: string | null }[],
  config: Record<string, unknown> | null,
): string {
  const arg = (s: string) => (/^[\w.=,:@%+-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);
  const players = seats.map((s) => (s.builtin ? s.name : arg(s.file ?? `${s.name}.ts`)));
  const sets = Object.entries(config ?? {})
    .filter(([, v]) => typeof v === 'number' || typeof v === 'string' || typeof v === 'boolean')
    .map(([k, v]) => ` --set ${arg(`${k}=${String(v)}`)}`)
    .join('');
  return `node arbiter.mjs play ${players.join(' ')} --seed ${seed}${sets}`;
}
