// What the play page's bundle gets for node:fs, node:path and node:url. The
// game contract (src/sdk/types.ts) looks in a game's folder for its bot
// files and statements when the game is defined; in the browser there is no
// folder, that information is never used, and these stand-ins find nothing.

export const existsSync = (_path: string): boolean => false;
export const readdirSync = (_path: string): string[] => [];
export const dirname = (path: string): string => path.replace(/\/[^/]*$/, '') || '/';
export const join = (...parts: string[]): string => parts.join('/').replace(/\/+/g, '/');
export const fileURLToPath = (url: string | URL): string => new URL(String(url)).pathname;
