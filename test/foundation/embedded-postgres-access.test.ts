import { mkdirSync, mkdtempSync, rmSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';
import { closedToOtherUsers, startEmbeddedPostgres } from '../../infra/postgres/embedded';

/**
 * As root, embedded PostgreSQL runs as the "postgres" user; a project in a directory that user
 * cannot enter (a home closed to others) must stop at once with a message saying what to do,
 * never with an unhandled `spawn ... EACCES` error event.
 */

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(tmpdir(), 'pg-access-'));
  chmodSync(scratch, 0o755);
});
afterAll(() => {
  chmodSync(scratch, 0o755);
  for (const dir of [path.join(scratch, 'home')]) if (existsSync(dir)) chmodSync(dir, 0o755);
  rmSync(scratch, { recursive: true, force: true });
});

test('closedToOtherUsers names every directory on the way that others cannot enter', () => {
  const home = path.join(scratch, 'home');
  const project = path.join(home, 'project', 'node_modules', 'bin');
  mkdirSync(project, { recursive: true });
  chmodSync(home, 0o700);
  expect(closedToOtherUsers([project])).toEqual([home]);
  expect(closedToOtherUsers([path.join(scratch, 'elsewhere')])).toEqual([]);
  chmodSync(home, 0o755);
  expect(closedToOtherUsers([project])).toEqual([]);
});

test('a data directory inside a closed directory stops the start at once with what to do (as root)', async () => {
  const closed = path.join(scratch, 'closed');
  mkdirSync(closed, { recursive: true });
  chmodSync(closed, 0o700);
  const start = startEmbeddedPostgres({ dataDir: path.join(closed, 'postgres'), persistent: false });
  if (userInfo().uid === 0) {
    await expect(start).rejects.toThrow(/"postgres" user, which cannot enter .*closed.*chmod o\+x .*DATABASE_URL/s);
    expect(existsSync(path.join(closed, 'postgres'))).toBe(false);
  } else {
    // Not root: PostgreSQL runs as this user, who owns the directory and can enter it.
    const running = await start;
    await running.stop();
  }
  chmodSync(closed, 0o755);
});
