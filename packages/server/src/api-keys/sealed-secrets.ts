// Secrets at rest (API-key secrets, and the authenticator secrets of users and administrators): sealed with
// AES-256-GCM under a 32-byte key kept in the data folder (DATA_DIR/private/api-keys.key, created on first
// use, readable by the server's user only). The database alone never reveals a secret. A sealed secret is
// three base64 parts joined by ':' (nonce, tag, ciphertext); no plain secret of ours contains a ':'.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export class SecretBox {
  readonly #key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('the API key sealing key must be 32 bytes');
    this.#key = key;
  }

  /** The box of a data folder, creating its key on first use. */
  static async forDataDir(dataDir: string): Promise<SecretBox> {
    const folder = join(dataDir, 'private');
    const path = join(folder, 'api-keys.key');
    try {
      return new SecretBox(Buffer.from((await readFile(path, 'utf8')).trim(), 'hex'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(folder, { recursive: true, mode: 0o700 });
    const key = randomBytes(32);
    try {
      await writeFile(path, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
      return new SecretBox(key);
    } catch (error) {
      // Another process created it first: use theirs.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      return new SecretBox(Buffer.from((await readFile(path, 'utf8')).trim(), 'hex'));
    }
  }

  /** Whether a stored value is sealed (rather than a plain value written before sealing applied to it). */
  static isSealed(text: string): boolean {
    return text.includes(':');
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64')).join(':');
  }

  open(text: string): string {
    const [iv, tag, sealed] = text.split(':').map((part) => Buffer.from(part, 'base64'));
    if (iv === undefined || tag === undefined || sealed === undefined)
      throw new Error('a sealed secret is malformed');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8');
  }
}

const boxes = new Map<string, Promise<SecretBox>>();

/**
 * The one box of a data folder for every sealed secret of the process (API-key secrets, authenticator
 * secrets): its key file is read or created once.
 */
export function secretBoxFor(dataDir: string): Promise<SecretBox> {
  let box = boxes.get(dataDir);
  if (box === undefined) {
    box = SecretBox.forDataDir(dataDir);
    // A failed read may be retried by the next caller.
    box.catch(() => boxes.delete(dataDir));
    boxes.set(dataDir, box);
  }
  return box;
}
