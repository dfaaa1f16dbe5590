import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startStack, TEST_ADMIN_TOKEN, type Stack } from '../setup/stack';

/**
 * Issue 38, items 1 and 5: `npm run admin` runs the compiled CLI and compiles it only when its
 * sources changed (it rebuilt the whole project on every call), the CLI has the source
 * commands, and every data folder `npm start` is told to use is out of git's reach.
 */
const PROJECT = path.resolve(__dirname, '../..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function run(file: string, args: string[], env: Record<string, string> = {}, cwd = PROJECT): Promise<Run> {
  try {
    const { stdout, stderr } = await promisify(execFile)(file, args, { cwd, env: { ...process.env, ...env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout?: string; stderr?: string };
    return { code: Number(failed.code ?? 1), stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('npm run admin', () => {
  let copy: string;

  beforeAll(() => {
    // A copy of what the launcher reads, so that touching its sources leaves the project alone.
    copy = mkdtempSync(path.join(tmpdir(), 'intent-leads-admin-cli-'));
    for (const part of ['scripts/admin.js', 'src/cli', 'tsconfig.json', 'tsconfig.cli.json']) {
      cpSync(path.join(PROJECT, part), path.join(copy, part), { recursive: true });
    }
    symlinkSync(path.join(PROJECT, 'node_modules'), path.join(copy, 'node_modules'));
  });
  afterAll(() => {
    if (copy) rmSync(copy, { recursive: true, force: true });
  });

  it('is the launcher of the compiled CLI, with no build before it', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(PROJECT, 'package.json'), 'utf8'));
    expect(scripts.admin).toBe('node scripts/admin.js');
    expect(scripts.preadmin).toBeUndefined();
  });

  it('compiles the CLI once, runs the compiled one after that, and compiles again when a source changed', async () => {
    const launcher = path.join(copy, 'scripts/admin.js');
    const compiled = path.join(copy, 'dist/src/cli/admin.js');

    const first = await run(process.execPath, [launcher, 'help'], {}, copy);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('[admin] compiling the operator CLI');
    expect(first.stdout).toContain('usage: npm run admin -- <command>');
    const compiledAt = statSync(compiled).mtimeMs;

    const second = await run(process.execPath, [launcher, 'help'], {}, copy);
    expect(second).toEqual({ code: 0, stdout: first.stdout, stderr: '' });
    expect(statSync(compiled).mtimeMs).toBe(compiledAt);

    // A source newer than the compiled CLI: compiled again before it runs.
    const source = path.join(copy, 'src/cli/admin.ts');
    const later = new Date(compiledAt + 5_000);
    utimesSync(source, later, later);
    const third = await run(process.execPath, [launcher, 'help'], {}, copy);
    expect(third.code).toBe(0);
    expect(third.stderr).toContain('[admin] compiling the operator CLI');
    expect(statSync(compiled).mtimeMs).toBeGreaterThan(compiledAt);
  });

  it('lists the source commands in its help', async () => {
    const help = await run(process.execPath, [path.join(PROJECT, 'scripts/admin.js'), 'help']);
    for (const command of ['list-sources', 'run-source <name>', 'enable-source <name>', 'disable-source <name>']) {
      expect(help.stdout).toContain(command);
    }
    expect(help.stdout).toContain('backfill-source <name>');
  });
});

describe('the source commands against a running service', () => {
  let stack: Stack;
  const admin = (...args: string[]) =>
    run(process.execPath, [path.join(PROJECT, 'scripts/admin.js'), ...args], {
      API_URL: stack.url,
      ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    });

  beforeAll(async () => {
    stack = await startStack({ worker: false });
    await stack.services.sources.schedules.ensure(stack.services.sources.names);
  });
  afterAll(() => stack?.stop());

  it('lists, disables, refuses to run a disabled source with the reason, and enables', async () => {
    const listed = await admin('list-sources');
    expect(listed.code).toBe(0);
    const names = JSON.parse(listed.stdout).items.map((source: { name: string }) => source.name);
    expect(names).toEqual(expect.arrayContaining(['job-boards', 'news', 'company-profiles']));

    const disabled = await admin('disable-source', 'job-boards');
    expect(disabled.code).toBe(0);
    expect(JSON.parse(disabled.stdout)).toMatchObject({ name: 'job-boards', enabled: false });
    expect((await stack.services.sources.get('job-boards')).enabled).toBe(false);

    const refused = await admin('run-source', 'job-boards');
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stderr).error).toMatchObject({ code: 'SOURCE_DISABLED' });

    const enabled = await admin('enable-source', 'job-boards');
    expect(JSON.parse(enabled.stdout)).toMatchObject({ name: 'job-boards', enabled: true });
    expect((await stack.services.sources.get('job-boards')).enabled).toBe(true);

    const missingName = await admin('backfill-source');
    expect(missingName.code).toBe(2);
    expect(JSON.parse(missingName.stderr).error.message).toContain('missing source name');
  });

  it("resets a lost dashboard password (the demo person's by default): the new one signs in, the old one no more", async () => {
    const account = await stack.services.accounts.create('Demo account', 0);
    const invite = await stack.services.members.createInvite(account.id, { role: 'owner' });
    await stack.services.members.acceptInvite(invite.token, {
      email: 'demo@example.com',
      password: 'forgotten-password',
    });

    const reset = await admin('reset-password');
    expect({ code: reset.code, stderr: reset.stderr }).toEqual({ code: 0, stderr: '' });
    const { email, password } = JSON.parse(reset.stdout);
    expect(email).toBe('demo@example.com');
    expect(await stack.services.members.verify('demo@example.com', password)).toMatchObject({ accountId: account.id });
    expect(await stack.services.members.verify('demo@example.com', 'forgotten-password')).toBeNull();

    const nobody = await admin('reset-password', 'nobody@example.com');
    expect(nobody.code).toBe(1);
    expect(JSON.parse(nobody.stderr).error).toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('data folders', () => {
  it('ignores every data folder npm start is told to use, not only .data (issue 38, item 5)', async () => {
    for (const file of ['.data/admin-token', '.data-2/admin-token', '.data-second/postgres/PG_VERSION']) {
      const checked = await run('git', ['check-ignore', '--quiet', '--no-index', file]);
      expect({ file, ignored: checked.code === 0 }).toEqual({ file, ignored: true });
    }
  });
});
