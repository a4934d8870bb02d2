import { createHash } from 'node:crypto';
import { AguiError } from '../common/agui-error';
import { ErrorCode } from '../common/error-code';
import { MAX_ID_LENGTH } from '../common/max-id-length';
import {
  THREAD_TEMP_FILE_NAME,
  threadFileStem,
  threadStateKey,
  threadTempFileName,
} from './thread-file-name';

const hexOf = (id: string) => Buffer.from(id, 'utf8').toString('hex');
const sha256Of = (id: string) => createHash('sha256').update(id, 'utf8').digest('hex');

// docs/behaviour/state.md#file-stems.
const rows = [
  {
    name: 'UUID stays readable',
    id: '0b7e4a2c-5f3d-4c1e-9a8b-1234567890ab',
    stem: '0b7e4a2c-5f3d-4c1e-9a8b-1234567890ab',
  },
  { name: 'lower-case id with dots and underscores', id: 'thread_1.v2', stem: 'thread_1.v2' },
  {
    name: 'path traversal is hex-encoded',
    id: '../external/thread',
    stem: `aguiid~${hexOf('../external/thread')}`,
  },
  { name: 'mixed case is hex-encoded', id: 'Thread-1', stem: 'aguiid~5468726561642d31' },
  { name: 'lower-case twin stays readable', id: 'thread-1', stem: 'thread-1' },
  { name: 'dot', id: '.', stem: 'aguiid~2e' },
  { name: 'dot dot', id: '..', stem: 'aguiid~2e2e' },
  { name: 'trailing dot', id: 'thread.', stem: `aguiid~${hexOf('thread.')}` },
  { name: 'Windows device name', id: 'con', stem: `aguiid~${hexOf('con')}` },
  { name: 'Windows device name with extension', id: 'com1.txt', stem: `aguiid~${hexOf('com1.txt')}` },
  { name: 'Windows device name with trailing dots', id: 'lpt9..', stem: `aguiid~${hexOf('lpt9..')}` },
  { name: 'device-like but longer is readable', id: 'console', stem: 'console' },
  { name: 'COM0 is not a device', id: 'com0', stem: 'com0' },
  { name: 'non-ASCII is hex of UTF-8', id: '会话', stem: `aguiid~${hexOf('会话')}` },
  { name: 'space is hex-encoded', id: 'a b', stem: 'aguiid~612062' },
  {
    name: 'longest encoded stem (199 characters) stays reversible',
    id: 'A'.repeat(96),
    stem: `aguiid~${hexOf('A'.repeat(96))}`,
  },
  {
    name: 'one byte more (201 characters) is hashed',
    id: 'A'.repeat(97),
    stem: `aguihash~${sha256Of('A'.repeat(97))}`,
  },
  { name: '"T"*115 is hashed', id: 'T'.repeat(115), stem: `aguihash~${sha256Of('T'.repeat(115))}` },
  {
    name: '"会话"*40 is hashed',
    id: '会话'.repeat(40),
    stem: `aguihash~${sha256Of('会话'.repeat(40))}`,
  },
];

describe('threadFileStem', () => {
  it.each(rows)('$name', ({ id, stem }) => expect(threadFileStem(id)).toBe(stem));

  it('bounds long encoded names under 100 characters', () => {
    for (const id of ['T'.repeat(115), '会话'.repeat(40)])
      expect(`${threadFileStem(id)}.json`.length).toBeLessThan(100);
  });

  it('keeps two long ids apart', () => {
    expect(threadFileStem('T'.repeat(115))).not.toBe(threadFileStem('T'.repeat(116)));
  });

  it('hex stems are reversible', () => {
    const stem = threadFileStem('../external/thread');
    expect(Buffer.from(stem.slice('aguiid~'.length), 'hex').toString('utf8')).toBe('../external/thread');
  });

  it.each([
    { name: 'empty id', id: '', code: ErrorCode.STATE_UNAVAILABLE },
    { name: 'lone surrogate (Python cannot encode it)', id: 'a\uD800', code: ErrorCode.INVALID_INPUT },
  ])('refuses $name', ({ id, code }) => {
    expect(() => threadFileStem(id)).toThrow(AguiError);
    expect(() => threadFileStem(id)).toThrow(expect.objectContaining({ code }));
  });
});

describe('threadFileStem: ids too long for a file name', () => {
  // The longest readable stem whose temp file `.<stem>.json.<8 hex>.tmp` fits NAME_MAX (255).
  const longestReadable = 'a'.repeat(236);

  it('keeps a readable id of 236 characters as it is (a Python-written file still loads)', () => {
    expect(threadFileStem(longestReadable)).toBe(longestReadable);
    expect(threadTempFileName(longestReadable)).toHaveLength(255);
  });

  it.each([237, 250, MAX_ID_LENGTH])('hashes a readable id of %i characters', (length) => {
    const id = 'a'.repeat(length);
    expect(threadFileStem(id)).toBe(`aguihash~${sha256Of(id)}`);
    expect(threadTempFileName(threadFileStem(id)).length).toBeLessThanOrEqual(255);
  });

  it('leaves the state key (Redis) of a long readable id unchanged', () => {
    expect(threadStateKey('a'.repeat(250))).toBe('a'.repeat(250));
  });

  it('gives every write its own temp name', () => {
    expect(threadTempFileName('t')).not.toBe(threadTempFileName('t'));
  });

  it.each([
    { name: threadTempFileName(threadFileStem('Thread-1')), isTemp: true },
    { name: '.thread-1.json.0123456789abcdef.tmp', isTemp: true }, // written by earlier versions
    { name: 'thread-1.json', isTemp: false },
    { name: '.thread-1.json.abc.tmp', isTemp: false },
    { name: '.thread-1.json.0123456z.tmp', isTemp: false },
  ])('recognises $name as a temp file: $isTemp', ({ name, isTemp }) => {
    expect(THREAD_TEMP_FILE_NAME.test(name)).toBe(isTemp);
  });
});
