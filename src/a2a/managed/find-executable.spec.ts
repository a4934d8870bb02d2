import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { findExecutable } from './find-executable';

describe('findExecutable', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'find-executable-'));
    for (const dir of ['plain', 'exec', 'dir']) mkdirSync(path.join(root, dir));
    writeFileSync(path.join(root, 'plain', 'iac-code'), '');
    writeFileSync(path.join(root, 'exec', 'iac-code'), '#!/bin/sh\n');
    chmodSync(path.join(root, 'exec', 'iac-code'), 0o755);
    mkdirSync(path.join(root, 'dir', 'iac-code'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it.each([
    { name: 'skips non-executable files and directories', dirs: ['plain', 'dir', 'exec'], expected: 'exec' },
    { name: 'returns undefined when no directory has it', dirs: ['plain', 'dir'], expected: undefined },
    { name: 'returns undefined for an empty PATH', dirs: [], expected: undefined },
  ])('$name', async ({ dirs, expected }) => {
    const pathVariable = dirs.map((dir) => path.join(root, dir)).join(':');
    const found = await findExecutable('iac-code', pathVariable, ':');
    expect(found).toBe(expected && path.join(root, expected, 'iac-code'));
  });
});
