// `arbiter tokens [list] | revoke <id>`: my API tokens on an Arbiter server,
// each with when it was made and last used (GET /api/tokens), and revoking
// one (DELETE /api/tokens/:id). The server and token are found as `arbiter
// submit` finds them (--url/--token, ARBITER_URL/ARBITER_TOKEN, the config file).
//
// Exit codes: 0 done, 1 a server or network error, 2 bad input (usage, no such token, a refused token).

import { clientConfig } from './submit.ts';
import { parseCommandArgs, UsageError } from './args.ts';

const USAGE = 'usage: arbiter tokens [list] | revoke <id>   [--url <server>] [--token <token>]';

interface TokenRow {
  id: number;
  prefix: string;
  label: string | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

/** A time as the table shows it: UTC to the minute. */
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')}Z` : '-');

export async function tokensCommand(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(args, { url: { type: 'string' }, token: { type: 'string' } });
  const [action = 'list', ...rest] = positionals;
  if (action === 'list' ? rest.length > 0 : action !== 'revoke' || rest.length !== 1) throw new UsageError(USAGE);
  let server: { url: string; token: string };
  try {
    server = clientConfig(values);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const call = async (method: string, path: string) => {
    let res: Response;
    try {
      res = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Bearer ${server.token}` } });
    } catch (err) {
      console.error(`arbiter tokens: cannot reach ${server.url}: ${(err as Error).message}`);
      return null;
    }
    return res;
  };
  const refused = async (res: Response) => {
    const body = (await res.json().catch(() => ({}))) as { message?: string; code?: string };
    console.error(`arbiter tokens: ${body.message ?? `the server answered ${res.status}`}${body.code ? ` (${body.code})` : ''}`);
    return res.status >= 400 && res.status < 500 ? 2 : 1;
  };

  if (action === 'revoke') {
    const id = rest[0]!;
    if (!/^\d{1,9}$/.test(id)) throw new UsageError(`"${id}" is not a token id: the number \`arbiter tokens\` lists`);
    const res = await call('DELETE', `/api/tokens/${id}`);
    if (!res) return 1;
    if (res.status !== 204) return refused(res);
    console.log(`token ${id} revoked`);
    return 0;
  }
  const res = await call('GET', '/api/tokens');
  if (!res) return 1;
  if (res.status !== 200) return refused(res);
  const rows = (await res.json()) as TokenRow[];
  if (rows.length === 0) {
    console.log('no tokens');
    return 0;
  }
  const table = [
    ['id', 'token', 'label', 'created', 'last used', 'revoked'],
    ...rows.map((t) => [String(t.id), `${t.prefix}…`, t.label ?? '', when(t.createdAt), when(t.lastUsedAt), when(t.revokedAt)]),
  ];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
  for (const r of table)
    console.log(
      r
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
    );
  return 0;
}
