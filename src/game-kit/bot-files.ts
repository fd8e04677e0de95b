import { join } from 'node:path';
import type { BotFiles } from './types.ts';

/**
 * The conventional layout of a game folder: bot-api.ts, player.d.ts and
 * bots/<Name>.ts for the built-ins (Null, Demo, Dummy unless told otherwise).
 */
export function conventionalBotFiles(gameDir: string, builtins: readonly string[] = ['Null', 'Demo', 'Dummy']): BotFiles {
  return {
    api: join(gameDir, 'bot-api.ts'),
    types: join(gameDir, 'player.d.ts'),
    builtin: Object.fromEntries(builtins.map((name) => [name, join(gameDir, 'bots', `${name}.ts`)])),
  };
}
