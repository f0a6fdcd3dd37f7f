import { fromBufferPromise } from 'yauzl';

/** Every file of a zip archive, by name, as UTF-8 text. */
export async function unzip(buffer: Buffer): Promise<Map<string, string>> {
  const zip = await fromBufferPromise(buffer, { lazyEntries: true });
  const files = new Map<string, string>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
  }
  return files;
}
