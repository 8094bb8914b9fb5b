import { existsSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { maskTextSecrets } from '../../config/mask-secrets.js';
import { createProfileStore } from '../../profiler/create-profiler.js';
import type { ProfileQuery, ProfileStore } from '../../profiler/profile-store.js';
import { isProfileToken, LATEST_TOKEN } from '../../profiler/token.js';
import { loadCliConfig, type AppCommandOptions } from '../app-context.js';
import { CliError, UsageError } from '../cli-error.js';
import type { CliIo } from '../cli-io.js';
import { formatOption, toJson, type OutputFormat } from '../output-format.js';
import { renderProfile } from '../render-profile.js';
import { createStyle } from '../style.js';
import { renderTable } from '../table.js';
import { firstLine } from '../load-app-module.js';
import { oneLine } from '../../logging/one-line.js';

interface ListOptions extends AppCommandOptions {
  status?: string;
  method?: string;
  url?: string;
  ip?: string;
  limit: number;
  format: OutputFormat;
}

/** profiler:list, profiler:show and profiler:purge, on the file storage under the project's var/profiler. */
export function registerProfilerCommands(program: Command, io: CliIo): void {
  program
    .command('profiler:list')
    .description('list recorded profiles, newest first')
    .option('--status <code>', 'status code, or its first digits (4 lists every 4xx, 40 lists 400 to 409)', parseStatus)
    // Upper-cased, as router:match takes it: the stored methods are, and the search compares them as they are.
    .option('--method <method>', 'request method', (value: string) => value.toUpperCase())
    .option('--url <text>', 'part of the URL; a leading ! excludes URLs containing the rest')
    .option('--ip <text>', 'part of the client IP')
    .option('--limit <n>', 'most profiles listed', parseLimit, 20)
    .addOption(formatOption())
    .option('-e, --env <env>', 'APP_ENV whose configuration locates var/')
    .action(async (options: ListOptions) => {
      const query: ProfileQuery = { limit: options.limit, statusCodePrefix: options.status, method: options.method, url: options.url, ip: options.ip };
      const found = await withStore(io, options, (store) => store.find(query));
      if (options.format === 'json') {
        io.stdout.write(toJson(found));
        return;
      }
      if (found.length === 0) {
        io.stdout.write('No profiles found.\n');
        return;
      }
      // Client data on one line, control characters escaped, as profiler:show writes them (see renderProfile).
      const rows = found.map((profile) => [profile.token, new Date(profile.time * 1000).toISOString(), oneLine(profile.method), String(profile.statusCode), oneLine(profile.ip), oneLine(profile.url), profile.parent ?? '']);
      io.stdout.write(renderTable(['Token', 'Time', 'Method', 'Status', 'IP', 'URL', 'Parent'], rows, createStyle(io.stdout, io.env)));
    });

  program
    .command('profiler:show')
    .description('show one profile: request, response, exception and logs')
    .argument('<token>', 'the profile token (X-Debug-Token), or latest for the newest request')
    .addOption(formatOption())
    .option('-e, --env <env>', 'APP_ENV whose configuration locates var/')
    .action(async (token: string, options: AppCommandOptions & { format: OutputFormat }) => {
      const latest = token === LATEST_TOKEN;
      if (!latest && !isProfileToken(token)) throw new UsageError(`"${token}" is not a profile token (six lowercase hexadecimal characters, or latest)`);
      const profile = await withStore(io, options, async (store, where) => {
        // `latest` as /_profiler/latest reads it: the newest record of a request, not of a sub-request.
        const newest = latest ? (await store.find({ type: 'request', limit: 1 }))[0]?.token : token;
        const found = newest === undefined ? undefined : await store.read(newest);
        if (found === undefined) throw new CliError(latest ? `no profile in ${where}` : `no profile "${token}" in ${where}`);
        return found;
      });
      io.stdout.write(options.format === 'json' ? toJson(profile) : renderProfile(profile, createStyle(io.stdout, io.env)));
    });

  program
    .command('profiler:purge')
    .description('delete every recorded profile')
    .option('-e, --env <env>', 'APP_ENV whose configuration locates var/')
    .action(async (options: AppCommandOptions) => {
      const where = await withStore(io, options, async (store, where) => {
        await store.purge();
        return where;
      });
      io.stdout.write(`Purged the profiles in ${where}.\n`);
    });
}

/**
 * Runs with the store the server writes to (createProfileStore, as the application builds it): its
 * in-memory front is empty in this process, so every answer comes from the durable storage behind it.
 */
async function withStore<T>(io: CliIo, options: AppCommandOptions, run: (store: ProfileStore, where: string) => Promise<T>): Promise<T> {
  const config = loadCliConfig(io, options);
  const storage: string = config.profiler.storage;
  if (storage === 'memory') throw new CliError('profiles are kept in server memory only (KEEL_PROFILER_STORAGE=memory): nothing to read from here');
  const dir = join(config.varDir, 'profiler');
  const where = storage === 'file' ? relative(io.cwd, dir) || dir : 'the Redis profile storage';
  // The store reads a missing folder as an empty one; something else in its place is no store at all.
  if (storage === 'file' && existsSync(dir) && !statSync(dir).isDirectory()) throw new CliError(`${where} is not a folder: no profile storage there`);
  const store = createProfileStore(config);
  try {
    return await run(store, where);
  } catch (error) {
    if (error instanceof CliError || storage === 'file') throw error;
    // ioredis says only that it gave up retrying: name what could not be reached.
    throw new CliError(`cannot read ${where} at ${maskTextSecrets(storage)}: ${firstLine(error)}`);
  } finally {
    await store.close?.().catch(() => undefined);
  }
}


function parseStatus(value: string): string {
  if (!/^\d{1,3}$/.test(value)) throw new InvalidArgumentError('a status code is up to three digits, e.g. 404.');
  return value;
}

function parseLimit(value: string): number {
  const limit = Number(value);
  if (!Number.isInteger(limit) || limit < 1) throw new InvalidArgumentError('a positive whole number is expected.');
  return limit;
}
