import { randomBytes } from 'node:crypto';

/** 144 random bits in 24 URL-safe characters: unguessable, and safe as a file name. */
export function newFileId(): string {
  return randomBytes(18).toString('base64url');
}

/** Whether a string can be an id this store made (checked before it touches the file system). */
export function isFileId(id: string): boolean {
  return /^[A-Za-z0-9_-]{22,64}$/.test(id);
}
