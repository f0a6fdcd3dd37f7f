import { MAX_FILE_BYTES, secretsInZip } from '../../../cloud/aws/collectors/code-package';
import { zip } from '../../helpers/zip';

// What of a code package is read for secrets: the customer's text files, not bundled dependencies, binaries or files
// too large to be configuration; only the kind, file and line are returned.

const KEY_LINE = '-----BEGIN RSA PRIVATE KEY-----';

describe('secretsInZip', () => {
  it("finds secrets in the package's own text files by file and line", async () => {
    const found = await secretsInZip(
      zip({
        'handler.py': 'import os\n\nAWS_KEY = "AKIAQWERTYUIOPASDF23"\n',
        'keys/signing.pem': `${KEY_LINE}\nMIIE\n`,
        'README.md': 'Deploy with make.\n',
      }),
    );
    expect(found).toEqual([
      { file: 'handler.py', line: 3, kind: 'aws_access_key_id' },
      { file: 'keys/signing.pem', line: 1, kind: 'private_key' },
    ]);
  });

  it('skips bundled dependencies, binaries and files larger than the bound', async () => {
    const found = await secretsInZip(
      zip({
        'node_modules/jsonwebtoken/test/priv.pem': `${KEY_LINE}\n`,
        'python/lib/python3.12/site-packages/lib/tests/key.pem': `${KEY_LINE}\n`,
        'lib/native.so': `${KEY_LINE}\n`,
        'data/blob.txt': Buffer.concat([Buffer.from('\0binary\n'), Buffer.from(`${KEY_LINE}\n`)]),
        'data/large.txt': `${KEY_LINE}\n${'x'.repeat(MAX_FILE_BYTES)}`,
      }),
    );
    expect(found).toEqual([]);
  });

  it('rejects what is not a zip archive', async () => {
    await expect(secretsInZip(Buffer.from('not a zip'))).rejects.toThrow();
  });
});
