import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A file written to a private temporary folder (mode 0700), removed by `remove`. */
export interface TempFile {
  path: string;
  bytes: number;
  remove(): Promise<void>;
}

/** Runs `write(path)` and answers the written file; a failed write leaves nothing behind. */
export async function writeTempFile(name: string, write: (file: string) => Promise<void>): Promise<TempFile> {
  const folder = await mkdtemp(path.join(tmpdir(), 'copytrade-'));
  const remove = () => rm(folder, { recursive: true, force: true });
  const file = path.join(folder, name);
  try {
    await write(file);
    return { path: file, bytes: (await stat(file)).size, remove };
  } catch (error) {
    await remove();
    throw error;
  }
}
