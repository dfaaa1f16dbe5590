import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The sources wing's rule (issue 37, item 1): a source's folder imports the kit and the rest of
 * the product, never another source's folder; the kit imports no source.
 */
const WING = path.join(__dirname, '../../src/sources');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : full.endsWith('.ts') ? [full] : [];
  });
}

/** The wing folder (a source's name, or `kit`) a path lies in; null outside the folders. */
function folderOf(file: string): string | null {
  const inWing = path.relative(WING, file);
  const [first, ...rest] = inWing.split(path.sep);
  return inWing.startsWith('..') || rest.length === 0 ? null : first!;
}

const folders = readdirSync(WING).filter((name) => statSync(path.join(WING, name)).isDirectory());

test('the wing has its kit and at least the seven sources, each with its module and settings', () => {
  expect(folders).toEqual(
    expect.arrayContaining([
      'kit',
      'job-boards',
      'company-profiles',
      'news',
      'sec-form-d',
      'ted',
      'people-data-labs',
      'companies-house',
    ]),
  );
  for (const source of folders.filter((name) => name !== 'kit')) {
    expect(readdirSync(path.join(WING, source))).toEqual(expect.arrayContaining(['index.ts', 'settings.ts']));
  }
});

test("no source imports another source's folder, and the kit imports none", () => {
  const crossings: string[] = [];
  for (const folder of folders) {
    for (const file of filesUnder(path.join(WING, folder))) {
      for (const [, spec] of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
        const target = folderOf(path.resolve(path.dirname(file), spec!));
        if (target !== null && target !== folder && target !== 'kit') {
          crossings.push(`${path.relative(WING, file)} → ${spec}`);
        }
      }
    }
  }
  expect(crossings).toEqual([]);
});
