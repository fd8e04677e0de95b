#!/usr/bin/env node
// Entry point of `npx arbiter`: registers tsx so the TypeScript sources run as
// they are, then hands over to src/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
process.exitCode = await main(process.argv.slice(2));
