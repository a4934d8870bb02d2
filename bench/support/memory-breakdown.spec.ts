import { residentByMapping } from './memory-breakdown';

/** One smaps entry: the header line and its Rss line (the other fields are not read). */
const entry = (start: number, end: number, perms: string, name: string, rssKb: number) =>
  `${start.toString(16)}-${end.toString(16)} ${perms} 00000000 00:00 0 ${name}\nSize: 0 kB\nRss: ${rssKb} kB\n`;

const MIB = 1024 * 1024;

describe('residentByMapping', () => {
  it('tells the main arena, a thread arena (64 MiB-aligned, rest reserved), other anonymous and files apart', () => {
    const arena = 64 * MIB * 3;
    const smaps = [
      entry(0x400000, 0x500000, 'r-xp', '/usr/bin/node', 3000),
      entry(0x600000, 0x900000, 'rw-p', '[heap]', 2048),
      entry(arena, arena + 2 * MIB, 'rw-p', '', 1024),
      entry(arena + 2 * MIB, arena + 64 * MIB, '---p', '', 0),
      // 64 MiB-aligned too, but not followed by the rest of an arena: not counted as one.
      entry(64 * MIB * 5, 64 * MIB * 5 + MIB, 'rw-p', '', 512),
      entry(64 * MIB * 5 + 3 * MIB, 64 * MIB * 5 + 4 * MIB, 'rw-p', '', 256),
    ].join('');
    expect(residentByMapping(smaps)).toEqual({
      total: (3000 + 2048 + 1024 + 512 + 256) * 1024,
      mainArena: 2048 * 1024,
      threadArenas: 1024 * 1024,
      threadArenaCount: 1,
      otherAnonymous: (512 + 256) * 1024,
      fileBacked: 3000 * 1024,
    });
  });
});
