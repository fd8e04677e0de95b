// The `arbiter play` line of a match, the one every page, the API and the CLI
// print: the tournament pages, the gate, the match page, `arbiter submit`.
// Pure (no imports), so the serializers and the pages share it.

/**
 * The shell line that replays a match with `arbiter play`: the seats in order
 * (seat 0 first), built-ins by name, a player's file as `file` says (the
 * file its owner submitted) or named after it; the seed and the settings.
 */
export function playCommandLine(
  game: string,
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
  return `npx arbiter play ${game} ${players.join(' ')} --seed ${seed}${sets}`;
}
