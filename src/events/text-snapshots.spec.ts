import { TextSnapshots, textDigest } from './text-snapshots';

describe('textDigest', () => {
  it.each([
    // Python: hashlib.sha256(text.encode('utf-8')).hexdigest()
    { text: 'abc', hex: 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad' },
    { text: 'é', hex: '4a99557e4033c3539de2eb65472017cad5f9557f7a0625a09f1c3f6e2ba69c4c' },
  ])('SHA-256 hex over UTF-8 of $text', ({ text, hex }) => expect(textDigest(text)).toBe(hex));
});

describe('TextSnapshots.replayedPrefixLength', () => {
  it.each([
    { name: 'no digests', digests: [], text: 'abc', length: 0 },
    { name: 'empty text', digests: [''], text: '', length: 0 },
    { name: 'the longest known prefix wins', digests: ['a', 'ab', 'x'], text: 'abc', length: 2 },
    { name: 'the whole text', digests: ['abc'], text: 'abc', length: 3 },
    { name: 'no prefix matches', digests: ['b', 'abcd'], text: 'abc', length: 0 },
    { name: 'an astral character counts two UTF-16 units', digests: ['a🌍'], text: 'a🌍b', length: 3 },
  ])('$name', ({ digests, text, length }) => {
    expect(new TextSnapshots(digests.map(textDigest)).replayedPrefixLength(text)).toBe(length);
  });
});

describe('TextSnapshots', () => {
  it('finalises the joined parts once, replaces a replayed message, and sorts the digests', () => {
    const snapshots = new TextSnapshots([textDigest('seed')]);
    snapshots.record('m1', 'Hel');
    snapshots.record('m1', 'lo');
    snapshots.replace('m2', 'full replay');
    snapshots.record('m2', '+');
    snapshots.finalise('m1');
    snapshots.finalise('m1');
    snapshots.finaliseAll();
    snapshots.finaliseAll();
    expect(snapshots.sortedDigests).toEqual(
      [textDigest('seed'), textDigest('Hello'), textDigest('full replay+')].sort(),
    );
  });

  it('claims the first sight of a message id once', () => {
    const snapshots = new TextSnapshots();
    expect([
      snapshots.claimFirstSight('m'),
      snapshots.claimFirstSight('m'),
      snapshots.claimFirstSight('n'),
    ]).toEqual([true, false, true]);
  });
});
