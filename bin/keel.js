#!/usr/bin/env node
// The `keel` command. keel ships TypeScript sources: tsx compiles them (and the application module) on load.
// A project without its own tsconfig.json gets keel's, so that .tsx modules use preact's JSX runtime.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

const ownTsconfig = fileURLToPath(new URL('../tsconfig.json', import.meta.url));
const tsconfig = process.env.TSX_TSCONFIG_PATH ?? (existsSync(join(process.cwd(), 'tsconfig.json')) ? undefined : ownTsconfig);
register(tsconfig === undefined ? {} : { tsconfig });
await import('../src/cli/main.ts');
